import type { Shape } from '../shape.ts';
import type { assetsEn } from './assets.en.ts';

/** The `assets` namespace, 简体中文. */
export const assetsZh: Shape<typeof assetsEn> = {
  title: '资产',
};
