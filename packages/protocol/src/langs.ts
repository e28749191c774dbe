/** The languages the menu offers, in menu order. `ft` is Traditional Chinese (the spec's code). */
export const LANGS = ['en', 'zh', 'ft'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'en';

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

/** BCP 47 tags for Intl number and date formatting. */
export const LOCALE_OF: Readonly<Record<Lang, string>> = { en: 'en-US', zh: 'zh-CN', ft: 'zh-TW' };
