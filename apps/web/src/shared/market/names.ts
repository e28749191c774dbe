import { instrumentName } from '@bourse/i18n';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The instrument's name in the customer's language (the catalogue's name when there is none). */
export function useInstrumentName(): (row: { symbol: string; name: string }) => string {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  return useCallback((row) => instrumentName(row.symbol, lang, row.name), [lang]);
}
