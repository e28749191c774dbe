import { type Lang, LOCALE_OF } from '@bourse/protocol';

/** Dates and times in the customer's language. Amounts go through `Num` from @bourse/ui instead. */
export function formatDateTime(ms: number, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

export function formatDate(ms: number, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'long' }).format(ms);
}

/** Whole numbers inside sentences (limits, counts), grouped per language. */
export function formatInteger(value: number, lang: Lang): string {
  return new Intl.NumberFormat(LOCALE_OF[lang], { maximumFractionDigits: 0 }).format(value);
}

/** Country or region name of an ISO 3166-1 alpha-2 code in the customer's language. */
export function regionName(code: string, lang: Lang): string {
  try {
    return new Intl.DisplayNames([LOCALE_OF[lang]], { type: 'region' }).of(code) ?? code;
  } catch (error) {
    console.warn('[format] no display name for region', code, error);
    return code;
  }
}

/** Server timestamps may be seconds or milliseconds; the app works in milliseconds. */
export function toMs(timestamp: number): number {
  return timestamp < 1e12 ? timestamp * 1000 : timestamp;
}
