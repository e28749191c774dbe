import type { MarketMakerData, MarketMakerHealthData, MarketMakerSettingsData } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/database.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { baseText, baseUnits, notionalUnits, priceText, qtyText, quoteText, toSteps } from './amounts.ts';
import type { Book } from './order.ts';
import { readSetting, writeSetting } from './repo.ts';
import type { Spot } from './service.ts';

/**
 * The built-in market maker: two ordinary customers (one per book) with ordinary spot balances,
 * funded once by ordinary ledger entries — the real one from the platform account
 * `market_maker_capital` (a contra account: the capital the operator commits), the demo one from
 * `demo_faucet`. It quotes `levels` bids and asks around the market module's reference price
 * (mark) through the same order path as any customer (`spot.placeFor`), and re-quotes a market
 * when its price has moved, at most once per `refresh_ms`.
 */
export const MM_DEFAULTS: MarketMakerSettingsData = {
  enabled: true,
  spread_bps: 10,
  step_bps: 10,
  levels: 5,
  level_notional: '2000',
  inventory_limit_pct: 50,
  refresh_ms: 3000,
};

/** Capital per market and book: this many times (levels × level_notional), in quote and in base. */
export const MM_CAPITAL_MULTIPLE = 4n;

/** Errors count towards "errors in the last hour" this long (by the injected clock). */
export const MM_ERROR_WINDOW_MS = 3_600_000;

type MarketHealth = {
  lastQuoteAt: number | null;
  /** Times of the errors in the window, oldest first. */
  errorTimes: number[];
  errorsTotal: number;
  lastError: string | null;
  /** Consecutive failed rounds (0 once it quotes again). */
  failures: number;
};

/** The market maker's health per market and book (`/healthz?detail=1`, `/metrics`, the back office). */
export type MarketMakerHealth = MarketMakerHealthData;

type Accounts = {
  newCustomer(input: {
    identity?: { kind: 'email'; email: string };
    passwordHash: string | null;
    invitedBy: string | null;
    demoExpiresAt?: Date;
    lang: 'en';
  }): Promise<{ id: string }>;
};

const EMAILS: Record<Book, string> = {
  real: 'market-maker@bourse.internal',
  demo: 'market-maker-demo@bourse.internal',
};

export function createMarketMaker(deps: {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  spot: Spot;
  accounts: Accounts;
  audit: AuditLog;
  enabledByConfig: boolean;
}) {
  const { db, clock, log, ledger, market, spot, accounts, audit } = deps;
  let settings: MarketMakerSettingsData = { ...MM_DEFAULTS, enabled: deps.enabledByConfig };
  const ids: Record<Book, string | null> = { real: null, demo: null };
  const lastQuoted = new Map<string, string>();
  let lastRefreshAt: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  /** `<book>:<currency>` whose capital is committed (checked in the ledger once per process). */
  const committed = new Set<string>();
  const health = new Map<string, MarketHealth>();

  function healthOf(book: Book, symbol: string): MarketHealth {
    const key = `${book}:${symbol}`;
    let h = health.get(key);
    if (!h) {
      h = { lastQuoteAt: null, errorTimes: [], errorsTotal: 0, lastError: null, failures: 0 };
      health.set(key, h);
    }
    return h;
  }

  function pruneErrors(h: MarketHealth, now: number): void {
    const from = now - MM_ERROR_WINDOW_MS;
    let drop = 0;
    while (drop < h.errorTimes.length && (h.errorTimes[drop] as number) <= from) drop += 1;
    if (drop > 0) h.errorTimes.splice(0, drop);
  }

  async function ensureAccount(book: Book): Promise<string> {
    const row = await db
      .selectFrom('accounts_customer')
      .select('id')
      .where('email', '=', EMAILS[book])
      .executeTakeFirst();
    if (row) return row.id;
    const created = await accounts.newCustomer({
      identity: { kind: 'email', email: EMAILS[book] },
      passwordHash: null, // nobody signs in as the market maker
      invitedBy: null,
      lang: 'en',
      ...(book === 'demo' ? { demoExpiresAt: new Date('2100-01-01T00:00:00Z') } : {}),
    });
    return created.id;
  }

  /** The quote capital one market commits: MM_CAPITAL_MULTIPLE × levels × level notional (no price in it). */
  function quoteCapitalOf(symbol: string): bigint {
    const m = spot.market(symbol);
    const level = toSteps(settings.level_notional, m.math.quoteScale, 1n);
    if (!level.ok) throw new Error(`level_notional ${settings.level_notional} does not fit ${m.quote}`);
    return level.steps * BigInt(settings.levels) * MM_CAPITAL_MULTIPLE;
  }

  /**
   * The base capital one market commits: the quote capital's worth at the catalogue's reference
   * price (`ref_price`, static instrument data), whole lots rounded up. Never the live mark: the
   * amount must be the same whenever it is asked for, or the idempotent credit would refuse.
   */
  function baseCapitalOf(symbol: string): bigint {
    const m = spot.market(symbol);
    const instrument = market.instrument(symbol);
    const refUnits = instrument.refTicks * instrument.tickUnits; // at instrument.priceScale
    const num = quoteCapitalOf(symbol) * 10n ** BigInt(instrument.priceScale + m.math.qtyScale);
    const den = refUnits * m.math.lotUnits * 10n ** BigInt(m.math.quoteScale);
    if (den <= 0n) throw new Error(`${symbol}: no reference price`);
    return baseUnits(m.math, (num + den - 1n) / den);
  }

  /**
   * Commits a book's capital in a currency once per market-maker account (idempotency key
   * `spot:mm:capital:<book>:<account>:<currency>`): the sum over the enabled markets using the
   * currency, in quote (quoteCapitalOf) or base (baseCapitalOf). A currency funded under the
   * earlier per-market keys (`spot:mm:capital:<book>:<symbol>:<currency>`) counts as committed.
   * A market added later whose currency is already committed shares that capital.
   */
  async function ensureCapital(book: Book, currency: string): Promise<void> {
    const customerId = ids[book];
    if (!customerId || committed.has(`${book}:${currency}`)) return;
    const key = `spot:mm:capital:${book}:${customerId}:${currency}`;
    const using = spot.markets().filter((m) => m.base === currency || m.quote === currency);
    const known = [key, ...using.map((m) => `spot:mm:capital:${book}:${m.symbol}:${currency}`)];
    for (const k of known) {
      if ((await ledger.entryIdByKey(db, k)) !== null) {
        committed.add(`${book}:${currency}`);
        return;
      }
    }
    let amountUnits = 0n;
    for (const m of using) {
      if (m.status !== 'enabled') continue;
      amountUnits += m.quote === currency ? quoteCapitalOf(m.symbol) : baseCapitalOf(m.symbol);
    }
    if (amountUnits <= 0n) return;
    await ledger.credit(db, {
      book,
      customerId,
      accountType: 'spot',
      currency,
      amountUnits,
      from: book === 'real' ? 'market_maker_capital' : 'demo_faucet',
      reason: 'spot.mm.capital',
      reference: { type: 'market_maker', id: `${book}:${currency}` },
      idempotencyKey: key,
    });
    committed.add(`${book}:${currency}`);
  }

  async function loadSettings(): Promise<void> {
    const value = await readSetting(db, 'market_maker');
    if (value) settings = { ...MM_DEFAULTS, ...(value as Partial<MarketMakerSettingsData>) };
  }

  /** Quotes one market of one book; true when its quotes are on the book afterwards (placed or kept). */
  async function quote(book: Book, symbol: string): Promise<boolean> {
    const customerId = ids[book];
    if (!customerId) return false;
    const m = spot.market(symbol);
    if (m.status !== 'enabled' || spot.killSwitch().engaged) return false;
    let mark: string;
    try {
      mark = market.priceForTrading(symbol).mark;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return false; // no live price (stale, closed, halted): nothing to quote around
    }
    const key = `${book}:${symbol}`;
    const runner = spot.runner(symbol, book);
    let mine = 0;
    for (const o of runner.open.values()) if (o.customerId === customerId) mine += 1;
    if (lastQuoted.get(key) === mark && mine > 0) return true;
    await spot.cancelAll(customerId, symbol);
    const ref = toSteps(mark, m.math.priceScale, m.math.tickUnits);
    if (!ref.ok) return false;
    const [base, quoteBal] = await Promise.all([
      ledger.balance(db, { book, customerId, accountType: 'spot', currency: m.base }),
      ledger.balance(db, { book, customerId, accountType: 'spot', currency: m.quote }),
    ]);
    if (!committed.has(`${book}:${m.base}`) || !committed.has(`${book}:${m.quote}`)) return false;
    const level = toSteps(settings.level_notional, m.math.quoteScale, 1n);
    if (!level.ok) return false;
    const baseCapital = baseCapitalOf(symbol);
    const held = base.availableUnits + base.frozenUnits;
    const pct = BigInt(settings.inventory_limit_pct);
    const quoteBids = held * 100n <= baseCapital * (100n + pct);
    const quoteAsks = held * 100n >= baseCapital * (100n - pct);
    let quoteLeft = quoteBal.availableUnits;
    let baseLeft = base.availableUnits;
    for (let i = 0; i < settings.levels; i++) {
      const bps = BigInt(settings.spread_bps + i * settings.step_bps);
      const bid = (ref.steps * (10_000n - bps)) / 10_000n;
      const ask = (ref.steps * (10_000n + bps) + 9_999n) / 10_000n;
      for (const [side, price, allowed] of [
        ['buy', bid, quoteBids],
        ['sell', ask, quoteAsks],
      ] as const) {
        if (!allowed || price <= 0n) continue;
        const lotValue = notionalUnits(m.math, price, 1n);
        let lots = level.steps / lotValue;
        if (lots < m.minQtyLots) lots = m.minQtyLots;
        const cost = side === 'buy' ? notionalUnits(m.math, price, lots) * 2n : baseUnits(m.math, lots);
        if (side === 'buy' ? cost > quoteLeft : cost > baseLeft) continue;
        try {
          await spot.placeFor(customerId, book, {
            symbol,
            side,
            type: 'limit',
            price: priceText(m.math, price),
            quantity: qtyText(m.math, lots),
            post_only: '1',
          });
          if (side === 'buy') quoteLeft -= cost;
          else baseLeft -= cost;
        } catch (error) {
          if (!(error instanceof Refusal)) throw error;
          // ORDER_WOULD_TAKE (a customer's order sits inside the spread), halts: skip this level.
        }
      }
    }
    lastQuoted.set(key, mark);
    return true;
  }

  /** One market of one book: its capital, then its quotes. A failure stays with this market. */
  async function refreshMarket(book: Book, symbol: string, base: string, quoteCcy: string): Promise<void> {
    const h = healthOf(book, symbol);
    try {
      await ensureCapital(book, quoteCcy);
      await ensureCapital(book, base);
      const quoted = await quote(book, symbol);
      if (h.failures > 0)
        log.info({ symbol, book, failures: h.failures }, 'market maker quoting this market again');
      h.failures = 0;
      if (quoted) h.lastQuoteAt = clock.now().getTime();
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
      const now = clock.now().getTime();
      h.errorTimes.push(now);
      pruneErrors(h, now);
      h.errorsTotal += 1;
      h.failures += 1;
      // One error line per run of failures (and when the failure changes), not one per round.
      if (h.failures === 1 || message !== h.lastError)
        log.error(
          { err: error, symbol, book, failures: h.failures },
          'market maker could not quote this market',
        );
      else log.debug({ symbol, book, failures: h.failures }, 'market maker still failing on this market');
      h.lastError = message;
    }
  }

  async function refreshAll(): Promise<void> {
    if (!settings.enabled) return;
    for (const book of ['real', 'demo'] as const) {
      if (!ids[book]) continue;
      for (const m of spot.markets()) {
        if (m.status !== 'enabled') continue;
        await refreshMarket(book, m.symbol, m.base, m.quote);
      }
    }
    lastRefreshAt = clock.now().getTime();
  }

  function schedule(): void {
    if (timer) clearInterval(timer);
    timer = null;
    if (!settings.enabled) return;
    timer = setInterval(() => {
      if (running) return;
      running = refreshAll()
        .catch((error) => log.error({ err: error }, 'market maker refresh failed'))
        .finally(() => {
          running = null;
        });
    }, settings.refresh_ms);
    timer.unref();
  }

  async function view(): Promise<MarketMakerData> {
    const inventory: MarketMakerData['inventory'] = [];
    const open = { real: 0, demo: 0 };
    for (const book of ['real', 'demo'] as const) {
      const id = ids[book];
      if (!id) continue;
      for (const b of await ledger.balances(db, { customerId: id, accountType: 'spot' })) {
        const m = spot.markets().find((x) => x.base === b.currency || x.quote === b.currency);
        const loaded = m ? spot.market(m.symbol) : null;
        const text = (u: bigint) =>
          loaded
            ? loaded.base === b.currency
              ? baseText(loaded.math, u)
              : quoteText(loaded.math, u)
            : u.toString();
        inventory.push({
          book,
          currency: b.currency,
          available: text(b.availableUnits),
          frozen: text(b.frozenUnits),
        });
      }
      for (const m of spot.markets())
        for (const o of spot.runner(m.symbol, book).open.values()) if (o.customerId === id) open[book] += 1;
    }
    return { settings, accounts: { ...ids }, inventory, open_orders: open, last_refresh_at: lastRefreshAt };
  }

  async function ensureAccounts(): Promise<void> {
    for (const book of ['real', 'demo'] as const) ids[book] ??= await ensureAccount(book);
  }

  return {
    async start(): Promise<void> {
      await loadSettings();
      if (!deps.enabledByConfig) settings = { ...settings, enabled: false };
      if (!settings.enabled) return;
      await ensureAccounts();
      schedule();
    },
    stop(): void {
      if (timer) clearInterval(timer);
      timer = null;
    },
    /** One refresh now (tests; the timer does the same). */
    async refreshNow(): Promise<void> {
      while (running) await running;
      await refreshAll();
    },
    /** Wait for a refresh in flight (shutdown). */
    async settled(): Promise<void> {
      while (running) await running;
    },
    view,
    /** Health per enabled market and book (rolling error window by the injected clock). */
    health(): MarketMakerHealth {
      const now = clock.now().getTime();
      const markets: MarketMakerHealth['markets'] = [];
      for (const book of ['real', 'demo'] as const) {
        if (!ids[book]) continue;
        for (const m of spot.markets()) {
          if (m.status !== 'enabled' && !health.has(`${book}:${m.symbol}`)) continue;
          const h = healthOf(book, m.symbol);
          pruneErrors(h, now);
          markets.push({
            symbol: m.symbol,
            book,
            last_quote_at: h.lastQuoteAt === null ? null : new Date(h.lastQuoteAt).toISOString(),
            last_quote_age_s:
              h.lastQuoteAt === null ? null : Math.max(0, Math.floor((now - h.lastQuoteAt) / 1000)),
            errors_last_hour: h.errorTimes.length,
            errors_total: h.errorsTotal,
            last_error: h.lastError,
          });
        }
      }
      return { enabled: settings.enabled, markets };
    },
    ids: () => ({ ...ids }),
    async update(
      staff: StaffContext,
      body: Partial<Record<keyof MarketMakerSettingsData, string>> & { reason: string },
    ): Promise<MarketMakerData> {
      const next: MarketMakerSettingsData = { ...settings };
      const int = (field: keyof MarketMakerSettingsData, min: number, max: number) => {
        const raw = body[field];
        if (raw === undefined) return;
        const v = Number(raw);
        if (!Number.isInteger(v) || v < min || v > max) refuse('BAD_INPUT', { field });
        (next as Record<string, unknown>)[field] = v;
      };
      if (body.enabled !== undefined) next.enabled = body.enabled === '1';
      int('spread_bps', 1, 5_000);
      int('step_bps', 0, 5_000);
      int('levels', 1, 20);
      int('inventory_limit_pct', 1, 100);
      int('refresh_ms', 500, 3_600_000);
      if (body.level_notional !== undefined) {
        const p = toSteps(body.level_notional, 8, 1n);
        if (!p.ok) refuse('AMOUNT_INVALID', { field: 'level_notional' });
        next.level_notional = body.level_notional;
      }
      const before = settings;
      await inTransaction(db, async (tx) => {
        await writeSetting(tx, 'market_maker', next, clock.now());
        await audit.record(tx, {
          actorId: staff.staffId,
          action: 'spot.market_maker.update',
          targetType: 'spot',
          targetId: 'market_maker',
          before,
          after: next,
          reason: body.reason,
        });
      });
      settings = next;
      if (!next.enabled) {
        if (timer) clearInterval(timer);
        timer = null;
        while (running) await running;
        for (const book of ['real', 'demo'] as const) {
          const id = ids[book];
          if (id) await spot.cancelAll(id, undefined, 'operator');
        }
        lastQuoted.clear();
      } else {
        await ensureAccounts();
        lastQuoted.clear();
        schedule();
      }
      return view();
    },
  };
}

export type MarketMaker = ReturnType<typeof createMarketMaker>;
