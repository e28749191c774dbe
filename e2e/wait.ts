import { expect } from 'vitest';

/**
 * Reads until `ok` holds for what was read (every 200 ms, up to `ms`); the value, else an error
 * naming `what` and the last value read. For waits on the server or the page that `expect.poll`
 * cannot express (the value is used after the wait).
 */
export async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * `expect.poll` for the slow steps of a payout (a staff action, blocks on the simulated chain): up to
 * `timeout` ms, every half second.
 */
export const slowPoll = <T>(fn: () => T | Promise<T>, timeout = 30_000) =>
  expect.poll(fn, { timeout, interval: 500 });
