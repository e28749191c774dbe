import type { TestApp } from '../../../test/harness.ts';
import { adminCall, staffSession } from '../staff/testing.ts';

/** Test support (imported by *.test.ts only): markets closed on purpose, whatever the test's instant. */

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** Trading hours closed at `now` and for days either side: one minute a week, three UTC days away. */
export function closedHours(now: Date): string {
  return `UTC ${WEEKDAYS[(now.getUTCDay() + 3) % 7]} 00:00-00:01`;
}

/** Closes `symbol` at the app clock's time through the staff call (audited, live at once). */
export async function closeMarket(t: TestApp, symbol: string): Promise<void> {
  const token = (await staffSession(t, ['administrator'])).token;
  const answer = await adminCall(t.app, {
    call: 'market/hours',
    token,
    fields: { symbol, hours: closedHours(t.clock.now()), reason: 'test: a market closed on purpose' },
  });
  if (answer.code !== 1) throw new Error(`closing ${symbol}: ${answer.msg}`);
}
