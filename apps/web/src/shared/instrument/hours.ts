import { type Lang, LOCALE_OF } from '@bourse/protocol';

/**
 * Trading hours as the catalogue writes them (modules/market README): `24/7`; `UTC Sun 22:00-Fri 22:00`
 * (a weekly window); `America/New_York Mon-Fri 09:30-16:00` (a session each listed day); parts joined
 * by `, `, each optionally starting with its zone. Parsed into pieces the screen words per language.
 */
export const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export type Day = (typeof DAYS)[number];

export type HoursPart =
  | { kind: 'session'; zone: string; days: Day[]; from: string; to: string; overnight: boolean }
  | { kind: 'window'; zone: string; fromDay: Day; fromTime: string; toDay: Day; toTime: string };
export type Hours = { always: true } | { always: false; parts: HoursPart[] };

const TIME = '(\\d{2}:\\d{2})';
const DAY = '(Sun|Mon|Tue|Wed|Thu|Fri|Sat)';
const WINDOW = new RegExp(`^${DAY} ${TIME}-${DAY} ${TIME}$`);
const SESSION = new RegExp(`^${DAY}(?:-${DAY})? ${TIME}-${TIME}$`);

function dayRange(from: Day, to: Day | undefined): Day[] {
  if (!to) return [from];
  const out: Day[] = [];
  for (let i = DAYS.indexOf(from); ; i = (i + 1) % 7) {
    out.push(DAYS[i] as Day);
    if (DAYS[i] === to || out.length === 7) return out;
  }
}

/** null when the text is not in the catalogue's grammar (the screen then shows it as written). */
export function parseHours(text: string): Hours | null {
  const trimmed = text.trim();
  if (trimmed === '24/7') return { always: true };
  let zone = 'UTC';
  const parts: HoursPart[] = [];
  for (const raw of trimmed.split(', ')) {
    let rest = raw.trim();
    const first = rest.split(' ')[0] ?? '';
    if (first === 'UTC' || first.includes('/')) {
      zone = first;
      rest = rest.slice(first.length).trim();
    }
    const w = WINDOW.exec(rest);
    if (w) {
      const [, fromDay, fromTime, toDay, toTime] = w as unknown as [string, Day, string, Day, string];
      parts.push({ kind: 'window', zone, fromDay, fromTime, toDay, toTime });
      continue;
    }
    const s = SESSION.exec(rest);
    if (!s) return null;
    const [, d1, d2, from, to] = s as unknown as [string, Day, Day | undefined, string, string];
    parts.push({ kind: 'session', zone, days: dayRange(d1, d2), from, to, overnight: to <= from });
  }
  return parts.length > 0 ? { always: false, parts } : null;
}

/** 2026-11-22 is a Sunday: day i of the week is that date plus i days. */
export function dayName(day: Day, lang: Lang): string {
  const date = new Date(Date.UTC(2026, 10, 22 + DAYS.indexOf(day), 12));
  return new Intl.DateTimeFormat(LOCALE_OF[lang], { weekday: 'short', timeZone: 'UTC' }).format(date);
}

/** "Mon–Fri" or a list, in the reader's language. */
export function daysText(days: readonly Day[], lang: Lang): string {
  if (days.length >= 3) {
    const start = DAYS.indexOf(days[0] as Day);
    const consecutive = days.every((d, i) => DAYS.indexOf(d) === (start + i) % 7);
    if (consecutive) return `${dayName(days[0] as Day, lang)}–${dayName(days.at(-1) as Day, lang)}`;
  }
  return days.map((d) => dayName(d, lang)).join(lang === 'en' ? ', ' : '、');
}

/**
 * The zone's generic name in the reader's language ("Eastern Time", "北美东部时间"); null for UTC,
 * which the catalog words itself (ICU only offers "GMT+00:00" for it in some languages).
 */
export function zoneName(zone: string, lang: Lang): string | null {
  if (zone === 'UTC') return null;
  try {
    const parts = new Intl.DateTimeFormat(LOCALE_OF[lang], {
      timeZone: zone,
      timeZoneName: 'longGeneric',
    }).formatToParts(new Date());
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
  } catch (error) {
    console.warn('[hours] unknown time zone', zone, error);
    return zone;
  }
}
