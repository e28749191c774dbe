import { randomBytes } from 'node:crypto';
import { scaleOf, toDecimalString } from '@bourse/money';
import { priceText, qtyText, quoteText } from '@bourse/risk';
import type { WebSocket } from 'ws';
import type { KeyPrincipal } from '../apikeys/index.ts';
import type { Spot } from '../spot/index.ts';
import type { BotApiDeps } from './context.ts';
import { binanceRefuse } from './errors.ts';
import { binanceSymbol, statusOf, typeOf } from './views.ts';

/**
 * Binance's user-data stream: a listen key per API key (`POST /api/v3/userDataStream`, kept alive
 * with PUT, closed with DELETE; valid 60 minutes after its last keep-alive on the injected clock),
 * and a websocket at `/api/v3/ws/<listenKey>` sending `executionReport` for each order change and
 * fill of the real book and `outboundAccountPosition` with the market's two balances after it.
 * Listen keys and sockets live in this process (several processes: issue 21, point 6).
 */

export const LISTEN_KEY_TTL_MS = 60 * 60_000;

type SpotEvents = Parameters<Spot['listen']>[0];
type Batch = Parameters<NonNullable<SpotEvents['onBatch']>>[2];
type Order = Batch['orders'][number];
type Listen = { customerId: string; keyId: string; expiresAt: number; sockets: Set<WebSocket> };

const UNKNOWN_KEY = { status: 400, code: -1125, msg: 'This listenKey does not exist.' };

export function createUserStreams(deps: BotApiDeps) {
  const keys = new Map<string, Listen>();
  const now = () => deps.clock.now().getTime();

  function live(listenKey: string | undefined): Listen | null {
    const l = listenKey ? keys.get(listenKey) : undefined;
    if (!l) return null;
    if (l.expiresAt <= now()) {
      expire(listenKey as string, l);
      return null;
    }
    return l;
  }

  function expire(listenKey: string, l: Listen): void {
    keys.delete(listenKey);
    for (const s of l.sockets) {
      send(s, { e: 'listenKeyExpired', E: now(), listenKey });
      s.close(1000, 'listen key expired');
    }
  }

  function owned(p: KeyPrincipal, listenKey: string | undefined): Listen {
    const l = live(listenKey);
    if (!l || l.keyId !== p.keyId) binanceRefuse(UNKNOWN_KEY);
    return l;
  }

  function send(socket: WebSocket, payload: unknown): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(payload));
  }

  function socketsOf(customerId: string): WebSocket[] {
    const out: WebSocket[] = [];
    for (const [listenKey, l] of keys) {
      if (l.customerId !== customerId) continue;
      if (l.expiresAt <= now()) expire(listenKey, l);
      else out.push(...l.sockets);
    }
    return out;
  }

  async function publish(symbol: string, outcome: Batch): Promise<void> {
    const m = deps.spot.market(symbol);
    for (const customerId of outcome.customers) {
      const sockets = socketsOf(customerId);
      if (sockets.length === 0) continue;
      for (const report of executionReports(symbol, outcome, customerId, m.math, m.quote, now()))
        for (const s of sockets) send(s, report);
      const balances = await Promise.all(
        [m.base, m.quote].map((currency) =>
          deps.ledger.balance(deps.db, { book: 'real', customerId, accountType: 'spot', currency }),
        ),
      );
      const position = {
        e: 'outboundAccountPosition',
        E: now(),
        u: now(),
        B: balances.map((b) => ({
          a: b.currency,
          f: toDecimalString(b.availableUnits, scaleOf(b.currency)),
          l: toDecimalString(b.frozenUnits, scaleOf(b.currency)),
        })),
      };
      for (const s of sockets) send(s, position);
    }
  }

  deps.spot.listen({
    onBatch(symbol, book, outcome) {
      if (book !== 'real') return;
      publish(symbol, outcome).catch((error) => deps.log.warn({ err: error }, 'user-data stream not sent'));
    },
  });

  return {
    /** One listen key per API key: the live one again, or a new one. */
    open(p: KeyPrincipal): { listenKey: string } {
      for (const [listenKey, l] of keys) {
        if (l.keyId === p.keyId && live(listenKey)) {
          l.expiresAt = now() + LISTEN_KEY_TTL_MS;
          return { listenKey };
        }
      }
      const listenKey = randomBytes(30).toString('base64url');
      keys.set(listenKey, {
        customerId: p.customerId,
        keyId: p.keyId,
        expiresAt: now() + LISTEN_KEY_TTL_MS,
        sockets: new Set(),
      });
      return { listenKey };
    },
    keepAlive(p: KeyPrincipal, listenKey: string | undefined): Record<string, never> {
      owned(p, listenKey).expiresAt = now() + LISTEN_KEY_TTL_MS;
      return {};
    },
    close(p: KeyPrincipal, listenKey: string | undefined): Record<string, never> {
      const l = owned(p, listenKey);
      keys.delete(listenKey as string);
      for (const s of l.sockets) s.close(1000, 'listen key closed');
      return {};
    },
    /** A socket for a listen key; an unknown or expired key closes it at once. */
    attach(listenKey: string, socket: WebSocket): void {
      const l = live(listenKey);
      if (!l) {
        socket.close(4001, 'unknown listen key');
        return;
      }
      l.sockets.add(socket);
      socket.on('close', () => l.sockets.delete(socket));
    },
  };
}

export type UserStreams = ReturnType<typeof createUserStreams>;

type Math = ReturnType<BotApiDeps['spot']['market']>['math'];

/** Binance execution reports of one customer for a settled batch: fills (TRADE), then what ended or rested. */
export function executionReports(
  symbol: string,
  outcome: Batch,
  customerId: string,
  math: Math,
  quote: string,
  at: number,
) {
  const reports: Record<string, unknown>[] = [];
  // Each order's fills in this batch, to count its cumulative quantity trade by trade.
  const batchFilled = new Map<string, bigint>();
  for (const t of outcome.trades)
    for (const o of [t.maker, t.taker]) batchFilled.set(o.id, (batchFilled.get(o.id) ?? 0n) + t.qtyLots);
  const running = new Map<string, { lots: bigint; amount: bigint }>();
  const mine = (o: Order) => o.customerId === customerId;
  const latest = new Map(outcome.orders.map((o) => [o.id, o]));
  for (const t of outcome.trades) {
    for (const [o, fee, maker] of [
      [t.maker, t.makerFee, true],
      [t.taker, t.takerFee, false],
    ] as const) {
      if (!mine(o)) continue;
      const final = latest.get(o.id) ?? o;
      const before = running.get(o.id) ?? {
        lots: final.filledLots - (batchFilled.get(o.id) ?? 0n),
        amount:
          final.filledAmount -
          outcome.trades
            .filter((x) => x.maker.id === o.id || x.taker.id === o.id)
            .reduce((s, x) => s + x.amount, 0n),
      };
      const after = { lots: before.lots + t.qtyLots, amount: before.amount + t.amount };
      running.set(o.id, after);
      const done = after.lots === final.qtyLots;
      reports.push({
        ...base(symbol, final, math, at),
        x: 'TRADE',
        X: done ? 'FILLED' : 'PARTIALLY_FILLED',
        l: qtyText(math, t.qtyLots),
        z: qtyText(math, after.lots),
        L: priceText(math, t.priceTicks),
        n: quoteText(math, fee),
        N: quote,
        T: t.time,
        t: t.id,
        w: !done,
        m: maker,
        Z: quoteText(math, after.amount),
        Y: quoteText(math, t.amount),
      });
    }
  }
  for (const o of outcome.orders) {
    if (!mine(o)) continue;
    const traded = batchFilled.has(o.id);
    if (o.status === 'cancelled' || !traded) {
      const view = { status: o.status, cancel_reason: o.cancelReason } as Parameters<typeof statusOf>[0];
      const status = statusOf(view);
      reports.push({
        ...base(symbol, o, math, at),
        x: status === 'PARTIALLY_FILLED' ? 'NEW' : status,
        X: status,
        l: '0',
        z: qtyText(math, o.filledLots),
        L: '0',
        n: '0',
        N: null,
        T: o.updatedAt.getTime(),
        t: -1,
        w: status === 'NEW' || status === 'PARTIALLY_FILLED',
        m: false,
        Z: quoteText(math, o.filledAmount),
        Y: '0',
      });
    }
  }
  return reports;
}

function base(symbol: string, o: Order, math: Math, at: number) {
  return {
    e: 'executionReport',
    E: at,
    s: binanceSymbol(symbol),
    c: o.clientOid ?? o.id,
    S: o.side.toUpperCase(),
    o: typeOf({ type: o.type, post_only: o.postOnly }),
    f: o.tif,
    q: qtyText(math, o.qtyLots),
    p: o.priceTicks === null ? '0' : priceText(math, o.priceTicks),
    P: '0',
    F: '0',
    g: -1,
    C: '',
    r: 'NONE',
    i: o.id,
    M: false,
    O: o.createdAt.getTime(),
    Q: '0',
    W: o.createdAt.getTime(),
    V: 'NONE',
  };
}
