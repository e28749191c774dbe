import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteServerTime, serverNow } from './useServerNow.ts';

describe('server clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows the server by the largest recent sample (each sample arrives late, so none overstates)', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    // The server is 5 s ahead; the samples arrived 300 ms, 40 ms and 900 ms after being stamped.
    noteServerTime(1_000_000 + 5_000 - 300);
    noteServerTime(1_000_000 + 5_000 - 40);
    noteServerTime(1_000_000 + 5_000 - 900);
    expect(serverNow()).toBe(1_000_000 + 4_960);
    vi.setSystemTime(1_010_000);
    expect(serverNow()).toBe(1_010_000 + 4_960);
  });

  it('forgets old samples, so a clock change is followed', () => {
    vi.useFakeTimers();
    vi.setSystemTime(2_000_000);
    for (let i = 0; i < 8; i++) noteServerTime(2_000_000 - 2_000);
    expect(serverNow()).toBe(2_000_000 - 2_000);
  });
});
