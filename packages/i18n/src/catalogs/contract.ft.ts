import type { Shape } from '../shape.ts';
import type { contractEn } from './contract.en.ts';

/** The `contract` namespace, 繁體中文. */
export const contractFt: Shape<typeof contractEn> = {
  title: '合約',
};
