import type { Shape } from '../shape.ts';
import type { withdrawEn } from './withdraw.en.ts';

/** The `withdraw` namespace, 简体中文. */
export const withdrawZh: Shape<typeof withdrawEn> = {
  title: '提币',
};
