/**
 * Fixed-window counters in memory: the single-process default. The interface is the seam for a
 * Redis-backed limiter when several server processes share the limits.
 */
export type RateLimiter = {
  /** Counts a hit; returns the seconds to wait when the limit is exceeded, else 0. */
  hit(key: string, limit: number, windowMs: number, nowMs: number): number;
};

const MAX_KEYS = 100_000;

export function memoryRateLimiter(): RateLimiter {
  const windows = new Map<string, { count: number; resetAtMs: number }>();
  return {
    hit(key, limit, windowMs, nowMs) {
      let window = windows.get(key);
      if (!window || window.resetAtMs <= nowMs) {
        if (windows.size >= MAX_KEYS) {
          for (const [k, w] of windows) if (w.resetAtMs <= nowMs) windows.delete(k);
          // Still full of live windows: drop the oldest rather than grow without bound.
          if (windows.size >= MAX_KEYS) windows.delete(windows.keys().next().value as string);
        }
        window = { count: 0, resetAtMs: nowMs + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return window.count > limit ? Math.max(1, Math.ceil((window.resetAtMs - nowMs) / 1000)) : 0;
    },
  };
}
