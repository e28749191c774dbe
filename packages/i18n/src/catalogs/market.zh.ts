import type { Shape } from '../shape.ts';
import type { marketEn } from './market.en.ts';

/** The `market` namespace, 简体中文. */
export const marketZh: Shape<typeof marketEn> = {
  title: '行情',
};
