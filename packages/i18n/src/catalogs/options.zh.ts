import type { Shape } from '../shape.ts';
import type { optionsEn } from './options.en.ts';

/** The `options` namespace, 简体中文. */
export const optionsZh: Shape<typeof optionsEn> = {
  title: '期权',
};
