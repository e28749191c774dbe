import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openPubSub, outageLog } from './redis.ts';

const REDIS = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** Log lines as [level, message] (pino's numeric levels: 30 info, 40 warn, 50 error). */
function recordingLog() {
  const lines: Array<[number, string]> = [];
  const log = pino(
    { level: 'info' },
    {
      write(line: string) {
        const parsed = JSON.parse(line) as { level: number; msg: string };
        lines.push([parsed.level, parsed.msg]);
      },
    },
  );
  return { log, lines };
}

/**
 * A TCP proxy in front of the machine's Redis that the test can cut (every connection dropped, new
 * ones refused) and restore on the same port: a Redis outage without touching the shared server.
 */
async function redisProxy() {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(Number(REDIS.port || 6379), REDIS.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      server = listening;
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    url: () => `redis://127.0.0.1:${port}`,
    async cut() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: listen,
  };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('outageLog', () => {
  it('logs a failure once until it recovers, then once again when it recurs', () => {
    const { log, lines } = recordingLog();
    const outage = outageLog(log, 'error', 'down', 'back');
    outage.ok();
    for (let i = 0; i < 50; i++) outage.failed(new Error(`attempt ${i}`));
    outage.ok();
    outage.ok();
    outage.failed(new Error('again'));
    expect(lines).toEqual([
      [50, 'down'],
      [30, 'back'],
      [50, 'down'],
    ]);
  });
});

describe('openPubSub through a Redis outage', () => {
  it('warns once per connection while Redis is away, however many publishes fail, and says when it is back', async () => {
    const proxy = await redisProxy();
    const { log, lines } = recordingLog();
    const channel = `bourse-test-${randomBytes(4).toString('hex')}`;
    const heard: string[] = [];
    const bus = await openPubSub({
      url: proxy.url(),
      channel,
      log,
      connectTimeoutMs: 1_000,
      onMessage: (text) => heard.push(text),
    });
    closers.push(() => bus.close());
    await bus.pub.publish(channel, 'before');
    await until(() => heard.includes('before'));

    await proxy.cut();
    const failures = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => bus.pub.publish(channel, `during ${i}`)),
    );
    expect(failures.every((f) => f.status === 'rejected')).toBe(true);
    const warnings = lines.filter(([level]) => level === 40);
    // One per connection (publisher and subscriber), not one per reconnect attempt or publish.
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(2);

    await proxy.restore();
    await until(() => lines.filter(([, msg]) => msg === 'redis connection back').length === 2);
    await until(() => bus.pub.status === 'ready');
    await bus.pub.publish(channel, 'after');
    await until(() => heard.includes('after'));
    expect(lines.filter(([level]) => level >= 40)).toEqual(warnings);
  }, 30_000);
});
