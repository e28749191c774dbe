import { describe, expect, it } from 'vitest';
import { isStaffedAt, nextStaffedAt, parseHours } from './hours.ts';

const at = (iso: string) => new Date(iso).getTime();

describe('staffed hours', () => {
  it('reads the daily grammar and refuses anything else', () => {
    expect(parseHours('24/7')).toMatchObject({ always: true });
    expect(parseHours('Asia/Hong_Kong Mon-Fri 09:00-18:00, Sat 10:00-12:00')?.windows).toHaveLength(6);
    for (const bad of ['', 'Mars/Olympus Mon-Fri 09:00-18:00', 'UTC Mon-Fri 9-18', 'UTC Funday 09:00-10:00'])
      expect(parseHours(bad)).toBeNull();
  });

  it('open inside the window, the next opening outside it (weekend, evening, across DST)', () => {
    const hk = parseHours('Asia/Hong_Kong Mon-Fri 09:00-18:00');
    if (!hk) throw new Error('parse');
    expect(isStaffedAt(hk, at('2026-11-23T02:00:00Z'))).toBe(true);
    expect(nextStaffedAt(hk, at('2026-11-23T02:00:00Z'))).toBeNull();
    expect(nextStaffedAt(hk, at('2026-11-28T04:00:00Z'))).toBe(at('2026-11-30T01:00:00Z'));
    expect(nextStaffedAt(hk, at('2026-11-23T10:00:30Z'))).toBe(at('2026-11-24T01:00:00Z'));
    const ny = parseHours('America/New_York Mon-Fri 09:00-17:00');
    if (!ny) throw new Error('parse');
    // Saturday 7 March 2026, before the spring change: Monday 09:00 is EDT (13:00 UTC).
    expect(nextStaffedAt(ny, at('2026-03-07T15:00:00Z'))).toBe(at('2026-03-09T13:00:00Z'));
    expect(nextStaffedAt(parseHours('24/7') as never, 0)).toBeNull();
  });
});
