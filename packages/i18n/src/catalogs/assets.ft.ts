import type { Shape } from '../shape.ts';
import type { assetsEn } from './assets.en.ts';

/** The `assets` namespace, 繁體中文. */
export const assetsFt: Shape<typeof assetsEn> = {
  title: '資產',
};
