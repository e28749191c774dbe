/** i18next plural suffixes. English has `_one` and `_other`; Chinese has no plural forms. */
export type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
/** A plural key's base: `total_one` and `total_other` are both `total`. */
type Base<K> = K extends `${infer B}_${PluralSuffix}` ? B : K;

/**
 * A catalog in another language must have exactly the English catalog's keys, except that an English
 * plural pair (`total_one`, `total_other`) is one key (`total`) in a language without plural forms:
 * i18next looks a counted key up with the language's suffix first and then without it.
 */
export type Shape<T> = {
  readonly [K in keyof T as Base<K & string>]: T[K] extends string ? string : Shape<T[K]>;
};
export type Tree = { readonly [key: string]: string | Tree };
