import type { Shape } from '../shape.ts';
import type { marketEn } from './market.en.ts';

/** The `market` namespace, 繁體中文. */
export const marketFt: Shape<typeof marketEn> = {
  title: '行情',
};
