import type { Shape } from '../shape.ts';
import type { optionsEn } from './options.en.ts';

/** The `options` namespace, 繁體中文. */
export const optionsFt: Shape<typeof optionsEn> = {
  title: '期權',
};
