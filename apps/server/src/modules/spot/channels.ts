import {
  SPOT_CHANNELS,
  SPOT_LIMITS,
  type SpotPrivateBalance,
  type SpotPrivateMessage,
  type SpotPrivateSnapshot,
} from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ChannelRegistry, Subscriber } from '../../ws/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { baseText, priceText, qtyText, quoteText } from './amounts.ts';
import type { BatchOutcome, Book } from './order.ts';
import type { Spot } from './service.ts';

/**
 * The spot websocket channels (docs/api.md, "Spot websocket channels"): depth snapshot + sequenced
 * diffs and prints per book, and the customer's private orders, fills and balances. Depth diffs
 * carry the levels a batch changed (quantity "0" = gone), read from the engine after the batch.
 */
export function registerSpotChannels(deps: {
  registry: ChannelRegistry;
  spot: Spot;
  ledger: Ledger;
  db: Db;
  log: Logger;
  clock: Clock;
}) {
  const { registry, spot, ledger, db, log, clock } = deps;
  const uidOf = new Map<string, string>();
  const balances = new Map<string, SpotPrivateBalance[]>();

  const symbolOf = (channel: string, prefix: string) => channel.slice(prefix.length);
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
  registry.provide(SPOT_CHANNELS.private, {
    check(channel: string, subscriber?: Subscriber) {
      const uid = symbolOf(channel, SPOT_CHANNELS.private);
      if (!subscriber?.identity) return { reason: 'LOGIN_REQUIRED', params: {} };
      if (subscriber.identity.uid !== uid) return { reason: 'FORBIDDEN', params: {} };
      return null;
    },
    snapshot(channel: string): SpotPrivateSnapshot {
      const uid = symbolOf(channel, SPOT_CHANNELS.private);
      const customerId = [...uidOf].find(([, u]) => u === uid)?.[0];
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
        balances: balances.get(customerId) ?? [],
      };
    },
  });

  async function loadBalances(customerId: string): Promise<SpotPrivateBalance[]> {
    const rows = await ledger.balances(db, { customerId, accountType: 'spot' });
    const markets = spot.markets();
    return rows.map((b) => {
      const m = markets.find((x) => x.base === b.currency || x.quote === b.currency);
      const loaded = m ? spot.market(m.symbol) : null;
      const text = (u: bigint) =>
        loaded
          ? loaded.base === b.currency
            ? baseText(loaded.math, u)
            : quoteText(loaded.math, u)
          : u.toString();
      return { currency: b.currency, available: text(b.availableUnits), frozen: text(b.frozenUnits) };
    });
  }

  spot.listen({
    onBatch(symbol: string, book: Book, outcome: BatchOutcome) {
      const m = spot.market(symbol);
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
          time: clock.now().getTime(),
        }));
      }
      if (outcome.trades.length > 0) {
        registry.publish(
          `${book === 'real' ? SPOT_CHANNELS.trades : SPOT_CHANNELS.tradesDemo}${symbol}`,
          () => ({
            symbol,
            book,
            items: outcome.trades.map((t) => ({
              trade_id: t.id,
              price: priceText(m.math, t.priceTicks),
              quantity: qtyText(m.math, t.qtyLots),
              side: t.takerSide,
              time: t.time,
            })),
          }),
        );
      }
      for (const customerId of outcome.customers) {
        const uid = uidOf.get(customerId);
        if (!uid) continue;
        const channel = `${SPOT_CHANNELS.private}${uid}`;
        if (!registry.hasSubscribers(channel)) continue;
        for (const o of outcome.orders) {
          if (o.customerId === customerId)
            registry.publish(
              channel,
              (): SpotPrivateMessage => ({ type: 'order', order: spot.orderData(o) }),
            );
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
        loadBalances(customerId).then(
          (items) => {
            balances.set(customerId, items);
            registry.publish(channel, (): SpotPrivateMessage => ({ type: 'balance', balances: items }));
          },
          (error) => log.warn({ err: error }, 'spot private balances not loaded'),
        );
      }
    },
  });

  return {
    /** Called when a socket authenticates: remembers its uid and loads the private snapshot's balances. */
    async authenticated(identity: { customerId: string; uid: string }): Promise<void> {
      uidOf.set(identity.customerId, identity.uid);
      balances.set(identity.customerId, await loadBalances(identity.customerId));
    },
  };
}
