import {
  SPOT_CHANNELS,
  SPOT_LIMITS,
  type SpotPrivateBalance,
  type SpotPrivateMessage,
  type SpotPrivateSnapshot,
} from '@bourse/protocol';
import { baseText, priceText, qtyText, quoteText } from '@bourse/risk';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ChannelRegistry, Subscriber } from '../../ws/index.ts';
import type { Ledger } from '../ledger/index.ts';
import type { BatchOutcome, Book } from './order.ts';
import type { Spot } from './service.ts';

/**
 * The spot websocket channels (docs/api.md, "Spot websocket channels"): depth snapshot + sequenced
 * diffs and prints per book, and the customer's private orders, fills and balances. Depth diffs
 * carry the levels a batch changed (quantity "0" = gone), read from the engine after the batch.
 */
export function registerSpotChannels(deps: ChannelDeps) {
  const c: Channels = { ...deps, uidOf: new Map(), balances: new Map() };
  providePublicChannels(c);
  providePrivateChannel(c);
  c.spot.listen({
    onBatch(symbol: string, book: Book, outcome: BatchOutcome) {
      publishBook(c, symbol, book, outcome);
      for (const customerId of outcome.customers) publishPrivate(c, symbol, customerId, outcome);
    },
  });
  return {
    /** Called when a socket authenticates: remembers its uid and loads the private snapshot's balances. */
    async authenticated(identity: { customerId: string; uid: string }): Promise<void> {
      c.uidOf.set(identity.customerId, identity.uid);
      c.balances.set(identity.customerId, await loadBalances(c, identity.customerId));
    },
  };
}

type ChannelDeps = {
  registry: ChannelRegistry;
  spot: Spot;
  ledger: Ledger;
  db: Db;
  log: Logger;
  clock: Clock;
};

type Channels = ChannelDeps & {
  /** customer id → uid, for the sockets that authenticated. */
  uidOf: Map<string, string>;
  /** customer id → the latest spot balances (the private channel's snapshot). */
  balances: Map<string, SpotPrivateBalance[]>;
};

const symbolOf = (channel: string, prefix: string) => channel.slice(prefix.length);

/** Depth and prints of each book: a known market's snapshot on subscribe. */
function providePublicChannels(c: Channels): void {
  const { registry, spot } = c;
  const marketCheck = (prefix: string) => (channel: string) => {
    const symbol = symbolOf(channel, prefix);
    return spot.markets(symbol).length === 1
      ? null
      : { reason: 'SPOT_MARKET_UNKNOWN' as const, params: { symbol } };
  };
  for (const [prefix, book] of [
    [SPOT_CHANNELS.depth, 'real'],
    [SPOT_CHANNELS.depthDemo, 'demo'],
  ] as const) {
    registry.provide(prefix, {
      check: marketCheck(prefix),
      snapshot: (channel) => spot.depthOf(symbolOf(channel, prefix), book, SPOT_LIMITS.depthChannelLevels),
    });
  }
  for (const [prefix, book] of [
    [SPOT_CHANNELS.trades, 'real'],
    [SPOT_CHANNELS.tradesDemo, 'demo'],
  ] as const) {
    registry.provide(prefix, {
      check: marketCheck(prefix),
      snapshot: (channel) => {
        const symbol = symbolOf(channel, prefix);
        return { symbol, book, items: spot.tradesOf(symbol, book, 50) };
      },
    });
  }
}

/** `spot_private:<uid>`: only that customer's authenticated socket; snapshot of open orders and balances. */
function providePrivateChannel(c: Channels): void {
  const { spot } = c;
  c.registry.provide(SPOT_CHANNELS.private, {
    check(channel: string, subscriber?: Subscriber) {
      const uid = symbolOf(channel, SPOT_CHANNELS.private);
      if (!subscriber?.identity) return { reason: 'LOGIN_REQUIRED', params: {} };
      if (subscriber.identity.uid !== uid) return { reason: 'FORBIDDEN', params: {} };
      return null;
    },
    snapshot(channel: string): SpotPrivateSnapshot {
      const uid = symbolOf(channel, SPOT_CHANNELS.private);
      const customerId = [...c.uidOf].find(([, u]) => u === uid)?.[0];
      if (!customerId) return { orders: [], balances: [] };
      const orders = [];
      for (const m of spot.markets()) {
        for (const book of ['real', 'demo'] as const) {
          for (const o of spot.runner(m.symbol, book).open.values())
            if (o.customerId === customerId) orders.push(o);
        }
      }
      orders.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
      return {
        orders: orders.slice(0, SPOT_LIMITS.openOrdersPerMarketMax).map((o) => spot.orderData(o)),
        balances: c.balances.get(customerId) ?? [],
      };
    },
  });
}

async function loadBalances(c: Channels, customerId: string): Promise<SpotPrivateBalance[]> {
  const rows = await c.ledger.balances(c.db, { customerId, accountType: 'spot' });
  const markets = c.spot.markets();
  return rows.map((b) => {
    const m = markets.find((x) => x.base === b.currency || x.quote === b.currency);
    const loaded = m ? c.spot.market(m.symbol) : null;
    const text = (u: bigint) =>
      loaded
        ? loaded.base === b.currency
          ? baseText(loaded.math, u)
          : quoteText(loaded.math, u)
        : u.toString();
    return { currency: b.currency, available: text(b.availableUnits), frozen: text(b.frozenUnits) };
  });
}

/** A batch's public side: the depth levels it changed and its prints. */
function publishBook(c: Channels, symbol: string, book: Book, outcome: BatchOutcome): void {
  const { registry } = c;
  const m = c.spot.market(symbol);
  const depthChannel = `${book === 'real' ? SPOT_CHANNELS.depth : SPOT_CHANNELS.depthDemo}${symbol}`;
  if (outcome.depth.bids.size + outcome.depth.asks.size > 0) {
    const level = ([p, q]: [number, number]): [string, string] => [
      priceText(m.math, BigInt(p)),
      qtyText(m.math, BigInt(q)),
    ];
    registry.publish(depthChannel, () => ({
      symbol,
      book,
      bids: [...outcome.depth.bids].sort((a, b) => b[0] - a[0]).map(level),
      asks: [...outcome.depth.asks].sort((a, b) => a[0] - b[0]).map(level),
      engine_seq: outcome.engineSeq,
      time: c.clock.now().getTime(),
    }));
  }
  if (outcome.trades.length > 0) {
    registry.publish(`${book === 'real' ? SPOT_CHANNELS.trades : SPOT_CHANNELS.tradesDemo}${symbol}`, () => ({
      symbol,
      book,
      items: outcome.trades.map((t) => ({
        trade_id: t.id,
        price: priceText(m.math, t.priceTicks),
        quantity: qtyText(m.math, t.qtyLots),
        side: t.takerSide,
        time: t.time,
      })),
    }));
  }
}

/** A batch's private side for one customer with a subscribed socket: their orders, fills, then balances. */
function publishPrivate(c: Channels, symbol: string, customerId: string, outcome: BatchOutcome): void {
  const { registry, spot } = c;
  const m = spot.market(symbol);
  const uid = c.uidOf.get(customerId);
  if (!uid) return;
  const channel = `${SPOT_CHANNELS.private}${uid}`;
  if (!registry.hasSubscribers(channel)) return;
  for (const o of outcome.orders) {
    if (o.customerId === customerId)
      registry.publish(channel, (): SpotPrivateMessage => ({ type: 'order', order: spot.orderData(o) }));
  }
  for (const t of outcome.trades) {
    for (const [o, fee, role] of [
      [t.maker, t.makerFee, 'maker'],
      [t.taker, t.takerFee, 'taker'],
    ] as const) {
      if (o.customerId !== customerId) continue;
      registry.publish(
        channel,
        (): SpotPrivateMessage => ({
          type: 'fill',
          fill: {
            trade_id: t.id,
            order_id: o.id,
            symbol,
            side: o.side,
            role,
            price: priceText(m.math, t.priceTicks),
            quantity: qtyText(m.math, t.qtyLots),
            amount: quoteText(m.math, t.amount),
            fee: quoteText(m.math, fee),
            fee_currency: m.quote,
            time: t.time,
          },
        }),
      );
    }
  }
  loadBalances(c, customerId).then(
    (items) => {
      c.balances.set(customerId, items);
      registry.publish(channel, (): SpotPrivateMessage => ({ type: 'balance', balances: items }));
    },
    (error) => c.log.warn({ err: error }, 'spot private balances not loaded'),
  );
}
