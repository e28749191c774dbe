import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A Redis connection for commands and publishing, and one subscribed to a channel. */
export type PubSub = {
  /** Commands and `publish` (the subscriber connection can do neither). */
  pub: Redis;
  close(): Promise<void>;
};

/**
 * A failure that repeats for as long as Redis is away (every publish, every reconnect attempt,
 * every election round): logged once, at `level`, when it starts, then nothing until `ok()` says
 * the next attempt worked — one info line, `recovered`. An outage of a minute is two lines, not one
 * per batch.
 */
export function outageLog(log: Logger, level: 'warn' | 'error', message: string, recovered: string) {
  let failing = false;
  return {
    failed(err: unknown): void {
      if (failing) return;
      failing = true;
      log[level]({ err }, message);
    },
    ok(): void {
      if (!failing) return;
      failing = false;
      log.info(recovered);
    },
  };
}

/**
 * Opens the two connections a process needs to share a stream over Redis pub/sub (ioredis, loaded
 * only when used): a connection's errors are logged as one warning until it is ready again
 * (ioredis reconnects by itself; `outageLog`), and every message on `channel` goes to `onMessage`
 * as text.
 */
export async function openPubSub(o: {
  url: string;
  channel: string;
  /** More channels heard by the same subscriber (a process's own inbox). */
  more?: readonly string[];
  log: Logger;
  connectTimeoutMs: number;
  onMessage: (text: string, channel: string) => void;
}): Promise<PubSub> {
  const { Redis } = await import('ioredis');
  const common = { connectTimeout: o.connectTimeoutMs, maxRetriesPerRequest: 3, lazyConnect: true };
  const pub = new Redis(o.url, common);
  const sub = new Redis(o.url, common);
  for (const [name, client] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    const outage = outageLog(
      o.log.child({ redis: name }),
      'warn',
      'redis connection error; reconnecting (quiet until it is back)',
      'redis connection back',
    );
    client.on('error', (err) => outage.failed(err));
    client.on('ready', () => outage.ok());
  }
  await Promise.all([pub.connect(), sub.connect()]);
  const channels = [o.channel, ...(o.more ?? [])];
  sub.on('message', (channel: string, text: string) => {
    if (channels.includes(channel)) o.onMessage(text, channel);
  });
  await sub.subscribe(...channels);
  return {
    pub,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
