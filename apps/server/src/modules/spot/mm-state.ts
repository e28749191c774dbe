import type { MarketMakerSettingsData } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import { BOOK_FEED_SYMBOL, type Market } from '../market/index.ts';
import type { Book } from './order.ts';
import type { Spot } from './service.ts';

/** The market maker's settings defaults and the state its parts share (`mm.ts` wires them). */
export const MM_DEFAULTS: MarketMakerSettingsData = {
  enabled: true,
  spread_bps: 10,
  step_bps: 10,
  levels: 5,
  level_notional: '2000',
  inventory_limit_pct: 50,
  refresh_ms: 3000,
};

/** The accounts module's calls that find or create the market maker's customers (declared here, passed in by wiring.ts). */
export type MarketMakerAccounts = {
  customerIdByEmail(email: string): Promise<string | null>;
  newCustomer(input: {
    identity?: { kind: 'email'; email: string };
    passwordHash: string | null;
    invitedBy: string | null;
    demoExpiresAt?: Date;
    lang: 'en';
  }): Promise<{ id: string }>;
};

export type MarketMakerDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: Market;
  spot: Spot;
  accounts: MarketMakerAccounts;
  audit: AuditLog;
  enabledByConfig: boolean;
};

/** One market and book's quoting health (`mm-health.ts`). */
export type MarketHealth = {
  lastQuoteAt: number | null;
  /** Times of the errors in the window, oldest first. */
  errorTimes: number[];
  errorsTotal: number;
  lastError: string | null;
  /** Consecutive failed rounds (0 once it quotes again). */
  failures: number;
};

export type MmState = MarketMakerDeps & {
  settings: MarketMakerSettingsData;
  /** The market maker's customer per book (null until created or found). */
  ids: Record<Book, string | null>;
  /** `<book>:<symbol>` → the mark (ticks) its quotes were placed around and how many rested. */
  lastQuoted: Map<string, { refTicks: bigint; resting: number }>;
  /** `<book>:<currency>` whose capital is committed (checked in the ledger once per process). */
  committed: Set<string>;
  /** `<book>:<symbol>` → its health. */
  health: Map<string, MarketHealth>;
  lastRefreshAt: number | null;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  /** Set at shutdown: a refresh in flight ends after the market it is on (the rest re-quote at the next start). */
  stopped: boolean;
  /** The settings row as last read or written here (keys sorted): another process's change is applied once. */
  settingsSeen: string;
};

export function createMmState(deps: MarketMakerDeps): MmState {
  return {
    ...deps,
    settings: { ...MM_DEFAULTS, enabled: deps.enabledByConfig },
    ids: { real: null, demo: null },
    lastQuoted: new Map(),
    committed: new Set(),
    health: new Map(),
    lastRefreshAt: null,
    timer: null,
    running: null,
    stopped: false,
    settingsSeen: 'null',
  };
}

/**
 * The markets the market maker quotes: every enabled one except a coin priced by its own book (a
 * launchpad listing), which is left to its traders — the operator never quotes, or buys with its
 * own money, a coin whose only price is that book.
 */
export function quotedMarkets(s: MmState) {
  return s.spot
    .markets()
    .filter((m) => m.status === 'enabled' && s.market.instrument(m.symbol).feedSymbol !== BOOK_FEED_SYMBOL);
}
