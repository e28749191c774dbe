import type { Shape } from '../shape.ts';
import type { withdrawEn } from './withdraw.en.ts';

/** The `withdraw` namespace, 繁體中文. */
export const withdrawFt: Shape<typeof withdrawEn> = {
  title: '提幣',
};
