import { describe, expect, it } from 'vitest';
import { daysText, parseHours, zoneName } from './hours.ts';

describe('trading hours', () => {
  it('parses every form the catalogue uses', () => {
    expect(parseHours('24/7')).toEqual({ always: true });
    expect(parseHours('UTC Sun 22:00-Fri 22:00')).toEqual({
      always: false,
      parts: [
        { kind: 'window', zone: 'UTC', fromDay: 'Sun', fromTime: '22:00', toDay: 'Fri', toTime: '22:00' },
      ],
    });
    expect(parseHours('America/New_York Mon-Fri 09:30-16:00')).toMatchObject({
      parts: [
        {
          kind: 'session',
          zone: 'America/New_York',
          days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
          overnight: false,
        },
      ],
    });
    expect(parseHours('America/New_York Sun-Thu 18:00-17:00')).toMatchObject({
      parts: [{ days: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu'], overnight: true }],
    });
    const hk = parseHours('Asia/Hong_Kong Mon-Fri 09:30-12:00, Mon-Fri 13:00-16:00');
    expect(hk).toMatchObject({
      parts: [{ zone: 'Asia/Hong_Kong' }, { zone: 'Asia/Hong_Kong', from: '13:00' }],
    });
    expect(parseHours('whenever')).toBeNull();
  });

  it('words days and zones in each language', () => {
    expect(daysText(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], 'en')).toBe('Mon–Fri');
    expect(daysText(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], 'zh')).toBe('周一–周五');
    expect(daysText(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], 'ft')).toMatch(/^週一–週五$/);
    expect(zoneName('America/New_York', 'zh')).not.toMatch(/[A-Za-z]{2,}/);
    expect(zoneName('UTC', 'ft')).toBeNull();
    expect(zoneName('Asia/Hong_Kong', 'ft')).toBe('香港標準時間');
  });
});
