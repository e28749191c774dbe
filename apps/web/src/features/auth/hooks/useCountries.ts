import type { Lang } from '@bourse/protocol';
import { type CountryCode, getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import { useMemo } from 'react';
import { regionName } from '../../../lib/format.ts';
import { useLang } from '../../../lib/i18n.ts';

export type CountryOption = { value: CountryCode; label: string; callingCode: string };

const FALLBACK_COUNTRY: Record<Lang, CountryCode> = { en: 'US', zh: 'CN', ft: 'TW' };

/** Every country libphonenumber knows, named in the customer's language and sorted in it. */
export function useCountries(): CountryOption[] {
  const lang = useLang();
  return useMemo(() => {
    const collator = new Intl.Collator(lang === 'en' ? 'en' : lang === 'zh' ? 'zh-CN' : 'zh-TW');
    return getCountries()
      .map((code) => {
        const callingCode = getCountryCallingCode(code);
        return { value: code, callingCode, label: `${regionName(code, lang)} +${callingCode}` };
      })
      .sort((a, b) => collator.compare(a.label, b.label));
  }, [lang]);
}

/** The browser's region when it names one libphonenumber knows, else the language's usual one. */
export function defaultCountry(lang: Lang): CountryCode {
  const known = new Set<string>(getCountries());
  const tags = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of tags) {
    const region = tag.split('-').find((part, index) => index > 0 && /^[A-Z]{2}$/.test(part));
    if (region && known.has(region)) return region as CountryCode;
  }
  return FALLBACK_COUNTRY[lang];
}
