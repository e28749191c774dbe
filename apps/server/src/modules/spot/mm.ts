import type { MarketMakerData, MarketMakerSettingsData } from '@bourse/protocol';
import { baseText, quoteText, toSteps } from '@bourse/risk';
import { inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { StaffContext } from '../../http/staff.ts';
import { ensureCapital } from './mm-capital.ts';
import { healthOf, healthReport, type MarketMakerHealth, recordFailure, recordRound } from './mm-health.ts';
import { quote } from './mm-quotes.ts';
import { createMmState, type MarketMakerDeps, MM_DEFAULTS, type MmState, quotedMarkets } from './mm-state.ts';
import type { Book } from './order.ts';
import { readSetting, settingKey, writeSetting } from './repo.ts';

export { MM_CAPITAL_MULTIPLE } from './mm-capital.ts';
export { type MarketMakerHealth, MM_ERROR_WINDOW_MS } from './mm-health.ts';
export { MM_DEFAULTS } from './mm-state.ts';

/**
 * The built-in market maker: two ordinary customers (one per book) with ordinary spot balances,
 * funded once by ordinary ledger entries — the real one from the platform account
 * `market_maker_capital` (a contra account: the capital the operator commits), the demo one from
 * `demo_faucet`. It quotes `levels` bids and asks around the market module's reference price
 * (mark) through the same order path as any customer (`spot.placeFor`), and re-quotes a market
 * when its price has moved, at most once per `refresh_ms`. Parts: capital `mm-capital.ts`, quotes
 * `mm-quotes.ts`, health `mm-health.ts`, shared state `mm-state.ts`; this file wires them and runs
 * the timer and the settings.
 */
export function createMarketMaker(deps: MarketMakerDeps) {
  const s = createMmState(deps);
  return {
    async start(): Promise<void> {
      s.spot.onControls(() => reloadSettings(s));
      await loadSettings(s);
      if (!deps.enabledByConfig) s.settings = { ...s.settings, enabled: false };
      if (!s.settings.enabled) return;
      await ensureAccounts(s);
      schedule(s);
    },
    /** No more timed rounds (tests then drive every round with refreshNow). */
    stop(): void {
      if (s.timer) clearInterval(s.timer);
      s.timer = null;
    },
    /** Shutdown: no more rounds, and a round in flight ends after the market it is on. */
    async close(): Promise<void> {
      s.stopped = true;
      if (s.timer) clearInterval(s.timer);
      s.timer = null;
      while (s.running) await s.running;
    },
    /** One refresh now (tests; the timer does the same). */
    async refreshNow(): Promise<void> {
      while (s.running) await s.running;
      await refreshAll(s);
    },
    view: () => view(s),
    /** Health per enabled market and book (rolling error window by the injected clock). */
    health: (): MarketMakerHealth => healthReport(s),
    ids: () => ({ ...s.ids }),
    update: (staff: StaffContext, body: SettingsBody) => update(s, staff, body),
  };
}

export type MarketMaker = ReturnType<typeof createMarketMaker>;

type SettingsBody = Partial<Record<keyof MarketMakerSettingsData, string>> & { reason: string };

const EMAILS: Record<Book, string> = {
  real: 'market-maker@bourse.internal',
  demo: 'market-maker-demo@bourse.internal',
};

async function loadSettings(s: MmState): Promise<void> {
  const value = await readSetting(s.db, 'market_maker');
  s.settingsSeen = settingKey(value ?? null);
  if (value) s.settings = { ...MM_DEFAULTS, ...(value as Partial<MarketMakerSettingsData>) };
}

async function ensureAccounts(s: MmState): Promise<void> {
  for (const book of ['real', 'demo'] as const) s.ids[book] ??= await ensureAccount(s, book);
}

async function ensureAccount(s: MmState, book: Book): Promise<string> {
  const found = await s.accounts.customerIdByEmail(EMAILS[book]);
  if (found) return found;
  const created = await s.accounts.newCustomer({
    identity: { kind: 'email', email: EMAILS[book] },
    passwordHash: null, // nobody signs in as the market maker
    invitedBy: null,
    lang: 'en',
    ...(book === 'demo' ? { demoExpiresAt: new Date('2100-01-01T00:00:00Z') } : {}),
  });
  return created.id;
}

/** One market of one book: its capital, then its quotes. A failure stays with this market. */
async function refreshMarket(s: MmState, book: Book, m: { symbol: string; base: string; quote: string }) {
  const where = { symbol: m.symbol, book };
  healthOf(s, book, m.symbol);
  try {
    await ensureCapital(s, book, m.quote);
    await ensureCapital(s, book, m.base);
    recordRound(s, where, await quote(s, book, m.symbol));
  } catch (error) {
    // Whatever stands on the book now, the next round re-quotes it (no tolerance after a failure).
    s.lastQuoted.delete(`${book}:${m.symbol}`);
    recordFailure(s, where, error);
  }
}

async function refreshAll(s: MmState): Promise<void> {
  if (!s.settings.enabled) return;
  for (const book of ['real', 'demo'] as const) {
    if (!s.ids[book]) continue;
    for (const m of quotedMarkets(s)) {
      if (s.stopped) return;
      // SPOT_LEASES: only the books this process owns (another process's market maker quotes the rest).
      if (!s.spot.owns(m.symbol, book)) continue;
      await refreshMarket(s, book, m);
    }
  }
  s.lastRefreshAt = s.clock.now().getTime();
}

function schedule(s: MmState): void {
  if (s.timer) clearInterval(s.timer);
  s.timer = null;
  if (!s.settings.enabled || s.stopped) return;
  s.timer = setInterval(() => {
    if (s.running) return;
    s.running = refreshAll(s)
      .catch((error) => s.log.error({ err: error }, 'market maker refresh failed'))
      .finally(() => {
        s.running = null;
      });
  }, s.settings.refresh_ms);
  s.timer.unref();
}

async function view(s: MmState): Promise<MarketMakerData> {
  const inventory: MarketMakerData['inventory'] = [];
  const open = { real: 0, demo: 0 };
  for (const book of ['real', 'demo'] as const) {
    const id = s.ids[book];
    if (!id) continue;
    for (const b of await s.ledger.balances(s.db, { customerId: id, accountType: 'spot' })) {
      const m = s.spot.markets().find((x) => x.base === b.currency || x.quote === b.currency);
      const loaded = m ? s.spot.market(m.symbol) : null;
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
    for (const m of s.spot.markets())
      for (const o of s.spot.runner(m.symbol, book).open.values()) if (o.customerId === id) open[book] += 1;
  }
  return {
    settings: s.settings,
    accounts: { ...s.ids },
    inventory,
    open_orders: open,
    last_refresh_at: s.lastRefreshAt,
  };
}

/** Checks and records new settings (audited); off cancels its quotes (`operator`), on re-quotes at once. */
async function update(s: MmState, staff: StaffContext, body: SettingsBody): Promise<MarketMakerData> {
  const next = settingsFrom(s.settings, body);
  const before = s.settings;
  await inTransaction(s.db, async (tx) => {
    await writeSetting(tx, 'market_maker', next, s.clock.now());
    await s.audit.record(tx, {
      actorId: staff.staffId,
      action: 'spot.market_maker.update',
      targetType: 'spot',
      targetId: 'market_maker',
      before,
      after: next,
      reason: body.reason,
    });
  });
  s.settingsSeen = settingKey(next);
  await apply(s, next);
  // SPOT_LEASES: the market makers of the other processes (quoting the books they own) follow.
  s.spot.controlsChanged();
  return view(s);
}

/** Runs with `next`: off stops the timer and cancels its quotes on the books this process runs. */
async function apply(s: MmState, next: MarketMakerSettingsData): Promise<void> {
  s.settings = next;
  if (!next.enabled) {
    if (s.timer) clearInterval(s.timer);
    s.timer = null;
    while (s.running) await s.running;
    for (const book of ['real', 'demo'] as const) {
      const id = s.ids[book];
      if (!id) continue;
      // Another process's books are its own market maker's to clear (it reads the same settings); the
      // books of this one all at once, each in one batch.
      const owned = s.spot.markets().filter((m) => s.spot.owns(m.symbol, book));
      await Promise.all(owned.map((m) => s.spot.cancelAll(id, m.symbol, 'operator')));
    }
    s.lastQuoted.clear();
  } else {
    await ensureAccounts(s);
    s.lastQuoted.clear();
    schedule(s);
  }
}

/** SPOT_LEASES: settings saved by another process's back office, applied here when they changed. */
async function reloadSettings(s: MmState): Promise<void> {
  if (s.stopped) return;
  const value = await readSetting(s.db, 'market_maker');
  const seen = settingKey(value ?? null);
  if (seen === s.settingsSeen) return;
  s.settingsSeen = seen;
  if (!value) return;
  const next = { ...MM_DEFAULTS, ...(value as Partial<MarketMakerSettingsData>) };
  // Switched off by this process's configuration: it stays off whatever the back office saves.
  await apply(s, s.enabledByConfig ? next : { ...next, enabled: false });
}

/** The current settings with the body's changes, each checked against its range. */
function settingsFrom(current: MarketMakerSettingsData, body: SettingsBody): MarketMakerSettingsData {
  const next: MarketMakerSettingsData = { ...current };
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
  return next;
}
