import type { SigninMeData } from '@bourse/protocol';

/** One day of the seven-day strip: its number, amount, whether it is signed, and whether it is today's. */
export type StripDay = { n: number; amount: string; signed: boolean; today: boolean };

/**
 * The strip as the customer's streak stands: signed today → days 1…streak signed, today = streak;
 * not yet → days before today's streak day signed (the running streak), today = that day. Without a
 * session nothing is marked.
 */
export function stripOf(amounts: readonly string[], me: SigninMeData | null): StripDay[] {
  const todayDay = me === null ? 0 : me.signed_today ? me.streak : (me.today_streak_day ?? 0);
  const signedUpTo = me === null ? 0 : me.signed_today ? me.streak : todayDay - 1;
  return amounts.map((amount, i) => ({
    n: i + 1,
    amount,
    signed: i + 1 <= signedUpTo,
    today: i + 1 === todayDay,
  }));
}

/** The condition in the page's language; null when the programme states none. */
export function conditionText(condition: { en: string; zh: string; ft: string }, lang: 'en' | 'zh' | 'ft') {
  const text = condition[lang].trim() || condition.en.trim();
  return text === '' ? null : text;
}
