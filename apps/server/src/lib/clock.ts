/** Time is passed in wherever behaviour depends on it, so tests can move it. */
export type Clock = { now(): Date };

/** The one wall-clock read behind behaviour: main.ts passes it in; everything else gets a Clock. */
export const systemClock: Clock = { now: () => new Date() };

export type ManualClock = Clock & { advance(ms: number): void; set(date: Date): void };

/** A clock that moves only when told; tests start it at a fixed instant (test/harness.ts testNow). */
export function manualClock(start: Date): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (date) => {
      current = date.getTime();
    },
  };
}
