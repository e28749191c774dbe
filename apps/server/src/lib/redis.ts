import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** A Redis connection for commands and publishing, and one subscribed to a channel. */
export type PubSub = {
  /** Commands and `publish` (the subscriber connection can do neither). */
  pub: Redis;
  close(): Promise<void>;
};

/**
 * Opens the two connections a process needs to share a stream over Redis pub/sub (ioredis, loaded
 * only when used): connection errors are logged as warnings (ioredis reconnects by itself), and
 * every message on `channel` goes to `onMessage` as text.
 */
export async function openPubSub(o: {
  url: string;
  channel: string;
  log: Logger;
  connectTimeoutMs: number;
  onMessage: (text: string) => void;
}): Promise<PubSub> {
  const { Redis } = await import('ioredis');
  const common = { connectTimeout: o.connectTimeoutMs, maxRetriesPerRequest: 3, lazyConnect: true };
  const pub = new Redis(o.url, common);
  const sub = new Redis(o.url, common);
  for (const client of [pub, sub]) client.on('error', (err) => o.log.warn({ err }, 'redis connection error'));
  await Promise.all([pub.connect(), sub.connect()]);
  sub.on('message', (channel: string, text: string) => {
    if (channel === o.channel) o.onMessage(text);
  });
  await sub.subscribe(o.channel);
  return {
    pub,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
