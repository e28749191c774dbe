import { useEffect, useState } from 'react';
import { marketStore } from '../../../lib/marketStore.ts';

/**
 * The server's clock as this browser sees it. Every server time that reaches the browser (the
 * websocket heartbeat's `server_time`, an option's `opened_at` in the answer to buying it) was
 * stamped before it arrived, so `server time − local time on arrival` is the true offset minus the
 * message's delay: never more than the truth. The largest of the recent samples is therefore the
 * best estimate. Countdowns use it, so a customer whose clock is off still sees the server's
 * expiry. Without any sample the local clock is used (offset 0).
 */
const SAMPLES_KEPT = 8;
const samples: number[] = [];
let offsetMs = 0;
let lastServerTime: number | null = null;

/** A server timestamp that has just arrived. */
export function noteServerTime(serverMs: number): void {
  samples.push(serverMs - Date.now());
  if (samples.length > SAMPLES_KEPT) samples.shift();
  offsetMs = Math.max(...samples);
}

function follow(): void {
  const server = marketStore.getState().serverTimeMs;
  if (server !== null && server !== lastServerTime) {
    lastServerTime = server;
    noteServerTime(server);
  }
}

let following = false;
function ensureFollowing(): void {
  if (following) return;
  following = true;
  follow();
  marketStore.subscribe(follow);
}

export function serverNow(): number {
  ensureFollowing();
  return Date.now() + offsetMs;
}

/**
 * The server time, re-rendering every `everyMs` (each second by default) while `active`. The value
 * is read at render time, so a render caused by anything else (an option arriving) is never stale.
 */
export function useServerNow(active = true, everyMs = 1_000): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setTick((n) => n + 1), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return serverNow();
}
