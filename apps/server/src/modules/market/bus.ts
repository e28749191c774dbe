import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { openPubSub, outageLog, type PubSub } from '../../lib/redis.ts';

/**
 * How processes share the market stream. One process — the feed owner, elected through Redis
 * (or the only process, without Redis) — polls the feeds, numbers ticks and batches, records
 * them, and publishes every batch; every other process applies the same batches in the same
 * order to its own copy of the market and serves its own websocket clients. Nobody else polls
 * a feed, so two processes never invent two different prices for one instant.
 */

/** A batch on the wire between processes: ticks as tuples, prices and sizes as decimal strings. */
export type WireTick = [
  symbol: string,
  seq: number,
  atMs: number,
  price: string,
  bid: string,
  ask: string,
  mark: string,
  size: string,
  source: string,
];
export type WireBatch = { v: 1; leader: string; seq: number; time: number; ticks: WireTick[] };

export type BusHandlers = {
  /** A batch from the feed owner (never this process's own). */
  onBatch(batch: WireBatch): void;
  /** This process became (true) or stopped being (false) the feed owner. */
  onLeadership(leader: boolean): void | Promise<void>;
};

export type MarketBus = {
  readonly processId: string;
  readonly distributed: boolean;
  start(handlers: BusHandlers): Promise<void>;
  publish(batch: WireBatch): void;
  close(): Promise<void>;
};

export const BUS_LIMITS = {
  /** The owner's lease; a process that dies loses it this long after its last renewal. */
  leaderTtlMs: 6_000,
  renewEveryMs: 2_000,
  connectTimeoutMs: 5_000,
} as const;

export function newProcessId(): string {
  return `${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** One process: always the owner; batches go straight to its own state. */
export function localBus(): MarketBus {
  return {
    processId: newProcessId(),
    distributed: false,
    async start(handlers) {
      await handlers.onLeadership(true);
    },
    publish() {},
    async close() {},
  };
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export function redisBus(options: { url: string; prefix: string; log: Logger }): MarketBus {
  const processId = newProcessId();
  // Redis away: one line each when it starts failing and when it works again, not one per round or batch.
  const electing = outageLog(
    options.log,
    'error',
    'market feed: election failed (quiet until an election round works again)',
    'market feed: election works again',
  );
  const publishing = outageLog(
    options.log,
    'error',
    'market bus: publish failed (quiet until publishing works again)',
    'market bus: publishing works again',
  );
  const batchChannel = `${options.prefix}market:batch`;
  const leaderKey = `${options.prefix}market:leader`;
  let bus: PubSub | null = null;
  let timer: NodeJS.Timeout | null = null;
  let leader = false;
  let handlers: BusHandlers | null = null;
  let closed = false;

  async function elect(): Promise<void> {
    const pub = bus?.pub;
    if (!pub || closed) return;
    try {
      if (leader) {
        const renewed = await pub.eval(RENEW, 1, leaderKey, processId, String(BUS_LIMITS.leaderTtlMs));
        if (renewed !== 1) {
          leader = false;
          options.log.warn({ processId }, 'market feed: lost ownership');
          await handlers?.onLeadership(false);
        }
      } else {
        const won = await pub.set(leaderKey, processId, 'PX', BUS_LIMITS.leaderTtlMs, 'NX');
        if (won === 'OK') {
          leader = true;
          options.log.info({ processId }, 'market feed: this process owns the feed');
          await handlers?.onLeadership(true);
        }
      }
      electing.ok();
    } catch (error) {
      electing.failed(error);
      if (leader) {
        leader = false;
        await handlers?.onLeadership(false);
      }
    }
  }

  return {
    processId,
    distributed: true,
    async start(h) {
      handlers = h;
      bus = await openPubSub({
        url: options.url,
        channel: batchChannel,
        log: options.log,
        connectTimeoutMs: BUS_LIMITS.connectTimeoutMs,
        onMessage(text) {
          let batch: WireBatch;
          try {
            batch = JSON.parse(text);
          } catch (error) {
            options.log.error({ err: error }, 'market bus: unreadable batch');
            return;
          }
          if (batch.v === 1 && batch.leader !== processId) handlers?.onBatch(batch);
        },
      });
      await elect();
      timer = setInterval(() => void elect(), BUS_LIMITS.renewEveryMs);
      timer.unref();
    },
    publish(batch) {
      bus?.pub.publish(batchChannel, JSON.stringify(batch)).then(
        () => publishing.ok(),
        (error: unknown) => publishing.failed(error),
      );
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      try {
        if (leader && bus) await bus.pub.eval(RELEASE, 1, leaderKey, processId);
      } finally {
        leader = false;
        await bus?.close();
      }
    },
  };
}
