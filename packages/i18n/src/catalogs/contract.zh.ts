import type { Shape } from '../shape.ts';
import type { contractEn } from './contract.en.ts';

/** The `contract` namespace, 简体中文. */
export const contractZh: Shape<typeof contractEn> = {
  title: '合约',
};
