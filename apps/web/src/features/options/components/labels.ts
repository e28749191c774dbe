import { type Lang, LOCALE_OF, type OptionDirection, type OptionStatus } from '@bourse/protocol';
import { trendColor, useNumSettings } from '@bourse/ui';
import { useTranslation } from 'react-i18next';
import { useLang } from '../../../lib/i18n.ts';
import { durationParts } from '../logic.ts';

/** Date and time to the second, in the reader's language (settlement times are read to the second). */
export function formatSeconds(ms: number, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALE_OF[lang], { dateStyle: 'medium', timeStyle: 'medium' }).format(ms);
}

/** The time of day to the second (for prices recorded beside a date shown elsewhere). */
export function formatClock(ms: number, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALE_OF[lang], { timeStyle: 'medium' }).format(ms);
}

function sameDay(a: number, b: number): boolean {
  return new Date(a).toDateString() === new Date(b).toDateString();
}

/** Every code an option carries, worded in the reader's language: nothing raw reaches the screen. */
export function useOptionWords() {
  const { t } = useTranslation('options');
  const lang = useLang();
  const { rise } = useNumSettings();
  return {
    lang,
    duration: (seconds: number) => {
      const { unit, count } = durationParts(seconds);
      return t(`duration.${unit}`, { count });
    },
    direction: (direction: OptionDirection) => (direction === 'up' ? t('form.up') : t('form.down')),
    /** Mantine colour of a direction under the customer's rise-colour preference. */
    directionColor: (direction: OptionDirection) => trendColor(direction, rise) ?? 'gray',
    status: (status: OptionStatus) => t(`status.${status}`),
    statusColor: (status: OptionStatus) =>
      status === 'won'
        ? (trendColor('up', rise) ?? 'green')
        : status === 'lost'
          ? (trendColor('down', rise) ?? 'red')
          : 'gray',
    /** The feed a price came from: `sim`, `replay`, `reference`, `ccxt:<exchange>`. */
    source: (source: string | null) => {
      if (!source) return '';
      if (source === 'sim' || source === 'replay' || source === 'reference') return t(`source.${source}`);
      if (source.startsWith('ccxt:')) {
        const name = source.slice(5);
        return t('source.exchange', { name: name.charAt(0).toUpperCase() + name.slice(1) });
      }
      return t('source.other', { name: source });
    },
    time: (ms: number | null) => (ms === null ? '' : formatSeconds(ms, lang)),
    clock: (ms: number | null) => (ms === null ? '' : formatClock(ms, lang)),
    /** `ms` as a time of day when it falls on the same day as `ref`, else with its date. */
    timeAfter: (ms: number, ref: number) =>
      sameDay(ms, ref) ? formatClock(ms, lang) : formatSeconds(ms, lang),
  };
}
