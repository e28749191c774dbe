import type { MarketMakerData, MarketMakerSettingsData } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/database.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { baseText, baseUnits, notionalUnits, priceText, qtyText, quoteText, toSteps } from './amounts.ts';
import type { Book } from './runner.ts';
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

  /** Funds a book's account once per market and currency (idempotency keys), from the platform account. */
  async function fund(book: Book): Promise<void> {
    const customerId = ids[book];
    if (!customerId) return;
    const levelUnitsCache = new Map<string, bigint>();
    for (const m of spot.markets()) {
      if (m.status !== 'enabled') continue;
      const loaded = spot.market(m.symbol);
      let mark: string;
      try {
        mark = market.priceForTrading(m.symbol).mark;
      } catch {
        continue; // no live price yet: funded on a later refresh
      }
      const ref = toSteps(mark, loaded.math.priceScale, loaded.math.tickUnits);
      if (!ref.ok) continue;
      const level = toSteps(settings.level_notional, loaded.math.quoteScale, 1n);
      if (!level.ok) continue;
      const quoteCapital = level.steps * BigInt(settings.levels) * MM_CAPITAL_MULTIPLE;
      const oneLot = notionalUnits(loaded.math, ref.steps, 1n);
      const baseCapital = baseUnits(loaded.math, (quoteCapital + oneLot - 1n) / oneLot);
      levelUnitsCache.set(m.symbol, quoteCapital);
      for (const [currency, amountUnits] of [
        [m.quote, quoteCapital],
        [m.base, baseCapital],
      ] as const) {
        await ledger.credit(db, {
          book,
          customerId,
          accountType: 'spot',
          currency,
          amountUnits,
          from: book === 'real' ? 'market_maker_capital' : 'demo_faucet',
          reason: 'spot.mm.capital',
          reference: { type: 'market_maker', id: `${book}:${m.symbol}` },
          idempotencyKey: `spot:mm:capital:${book}:${m.symbol}:${currency}`,
        });
      }
    }
  }

  async function loadSettings(): Promise<void> {
    const row = await db
      .selectFrom('spot_setting')
      .select('value')
      .where('key', '=', 'market_maker')
      .executeTakeFirst();
    if (row) settings = { ...MM_DEFAULTS, ...(row.value as Partial<MarketMakerSettingsData>) };
  }

  async function quote(book: Book, symbol: string): Promise<void> {
    const customerId = ids[book];
    if (!customerId) return;
    const m = spot.market(symbol);
    if (m.status !== 'enabled' || spot.killSwitch().engaged) return;
    let mark: string;
    try {
      mark = market.priceForTrading(symbol).mark;
    } catch {
      return;
    }
    const key = `${book}:${symbol}`;
    const runner = spot.runner(symbol, book);
    let mine = 0;
    for (const o of runner.open.values()) if (o.customerId === customerId) mine += 1;
    if (lastQuoted.get(key) === mark && mine > 0) return;
    await spot.cancelAll(customerId, symbol);
    const ref = toSteps(mark, m.math.priceScale, m.math.tickUnits);
    if (!ref.ok) return;
    const [base, quoteBal] = await Promise.all([
      ledger.balance(db, { book, customerId, accountType: 'spot', currency: m.base }),
      ledger.balance(db, { book, customerId, accountType: 'spot', currency: m.quote }),
    ]);
    const capital = await ledger.entryIdByKey(db, `spot:mm:capital:${book}:${symbol}:${m.base}`);
    if (capital === null) return;
    const level = toSteps(settings.level_notional, m.math.quoteScale, 1n);
    if (!level.ok) return;
    const quoteCapital = level.steps * BigInt(settings.levels) * MM_CAPITAL_MULTIPLE;
    const oneLotAtRef = notionalUnits(m.math, ref.steps, 1n);
    const baseCapital = baseUnits(m.math, (quoteCapital + oneLotAtRef - 1n) / oneLotAtRef);
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
  }

  async function refreshAll(): Promise<void> {
    if (!settings.enabled) return;
    for (const book of ['real', 'demo'] as const) {
      if (!ids[book]) continue;
      await fund(book);
      for (const m of spot.markets()) {
        try {
          await quote(book, m.symbol);
        } catch (error) {
          log.warn({ err: error, symbol: m.symbol, book }, 'market maker could not quote');
        }
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
        await tx
          .insertInto('spot_setting')
          .values({ key: 'market_maker', value: JSON.stringify(next), updated_at: clock.now() })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({ value: JSON.stringify(next), updated_at: clock.now() }),
          )
          .execute();
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
