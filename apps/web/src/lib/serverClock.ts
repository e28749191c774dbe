import { useEffect, useState } from 'react';
import { marketStore } from './marketStore.ts';

/**
 * The time countdowns run on (the launchpad's windows, C2C's pay-by and confirm-by deadlines): the
 * server's clock as this browser sees it. Each server time that arrives (the websocket heartbeat's
 * `server_time`) was stamped before it arrived, so `server − local on arrival` never overstates the
 * offset; the largest recent sample is the best estimate (the options screen's `useServerNow` does
 * the same with its own hook).
 * Without a sample the local clock is used. Logic never reads the clock itself: it is handed `now`.
 * Tests replace the source with `setNowSource`.
 */
const SAMPLES_KEPT = 8;
const samples: number[] = [];
let offsetMs = 0;
let lastServerTime: number | null = null;
let following = false;

function follow(): void {
  const server = marketStore.getState().serverTimeMs;
  if (server === null || server === lastServerTime) return;
  lastServerTime = server;
  // The wall clock read on purpose: the sample is the server's stamp against this device's arrival time.
  samples.push(server - Date.now());
  if (samples.length > SAMPLES_KEPT) samples.shift();
  offsetMs = Math.max(...samples);
}

function serverNow(): number {
  if (!following) {
    following = true;
    follow();
    marketStore.subscribe(follow);
  }
  return Date.now() + offsetMs;
}

let source: () => number = serverNow;

/** Replaces the time source (tests); `null` puts the server clock back. */
export function setNowSource(next: (() => number) | null): void {
  source = next ?? serverNow;
}

export function nowMs(): number {
  return source();
}

/** The time, re-rendering every `everyMs` while `active`; read at render, so it is never stale. */
export function useNow(active = true, everyMs = 1_000): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((n) => n + 1), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return nowMs();
}
