import { isKnownAsset, scaleOf, toDecimalString } from '@bourse/money';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type Book, LEDGER_LIMITS } from './model.ts';
import * as repo from './repo.ts';

/** The log message of a failed verification: alerting matches on it, so it never changes. */
export const LEDGER_ALARM_MESSAGE = 'LEDGER ALARM: verification found a mismatch';

export type Mismatch =
  | { kind: 'book_total'; book: Book; currency: string; postedUnits: bigint; balanceUnits: bigint }
  | { kind: 'entry_unbalanced'; entryId: string; currency: string | null; sumUnits: bigint; postings: number }
  | {
      kind: 'account_balance';
      accountId: string;
      book: Book;
      currency: string;
      availableUnits: bigint;
      frozenUnits: bigint;
      postedAvailableUnits: bigint;
      postedFrozenUnits: bigint;
    }
  | { kind: 'cross_book'; entryId: string; accountId: string };

export type VerifyReport = {
  ok: boolean;
  checkedAt: Date;
  durationMs: number;
  entries: number;
  postings: number;
  accounts: number;
  /** Per book and currency: both sums must be zero. */
  totals: repo.BookCurrencyTotal[];
  /** At most LEDGER_LIMITS.reportMismatchesMax per kind. */
  mismatches: Mismatch[];
};

/**
 * Proves, on one consistent snapshot (REPEATABLE READ, read only), that for every book and currency
 * the postings sum to zero, every entry balances, and every account's available and frozen equal
 * the sums of its postings (and are not below zero where that is not allowed).
 */
export async function verifyLedger(db: Db, clock: Clock): Promise<VerifyReport> {
  const started = performance.now();
  const checkedAt = clock.now();
  const limit = LEDGER_LIMITS.reportMismatchesMax;
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const counts = await repo.journalCounts(tx);
      const totals = await repo.bookCurrencyTotals(tx);
      const mismatches: Mismatch[] = [];
      for (const t of totals) {
        if (t.postedUnits !== 0n || t.balanceUnits !== 0n) mismatches.push({ kind: 'book_total', ...t });
      }
      for (const e of await repo.unbalancedEntries(tx, limit))
        mismatches.push({ kind: 'entry_unbalanced', ...e });
      for (const a of await repo.accountMismatches(tx, limit)) {
        mismatches.push({
          kind: 'account_balance',
          accountId: a.accountId,
          book: a.book,
          currency: a.currency,
          availableUnits: a.availableUnits,
          frozenUnits: a.frozenUnits,
          postedAvailableUnits: a.postedAvailableUnits,
          postedFrozenUnits: a.postedFrozenUnits,
        });
      }
      for (const c of await repo.crossBookPostings(tx, limit)) mismatches.push({ kind: 'cross_book', ...c });
      return {
        ok: mismatches.length === 0,
        checkedAt,
        durationMs: Math.round(performance.now() - started),
        ...counts,
        totals,
        mismatches,
      };
    });
}

function decimal(units: bigint, currency: string): string {
  // A currency the money package does not know (a row written by a newer version): raw units.
  return isKnownAsset(currency) ? toDecimalString(units, scaleOf(currency)) : `${units} units`;
}

/** A JSON-safe form of the report (amounts as decimal strings) for logs and the CLI. */
export function reportSummary(report: VerifyReport) {
  return {
    ok: report.ok,
    checkedAt: report.checkedAt.toISOString(),
    durationMs: report.durationMs,
    entries: report.entries,
    postings: report.postings,
    accounts: report.accounts,
    totals: report.totals.map((t) => ({
      book: t.book,
      currency: t.currency,
      posted: decimal(t.postedUnits, t.currency),
      balances: decimal(t.balanceUnits, t.currency),
      accounts: t.accounts,
    })),
    mismatches: report.mismatches.map((m) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])),
    ),
  };
}

/** A human-readable table of the report, for `npm run ledger:verify`. */
export function formatReport(report: VerifyReport): string {
  const lines = [
    `ledger verification ${report.ok ? 'OK' : 'FAILED'} at ${report.checkedAt.toISOString()} (${report.durationMs} ms)`,
    `entries ${report.entries} · postings ${report.postings} · accounts ${report.accounts}`,
    '',
    'book  currency  accounts  postings sum  balances sum',
  ];
  for (const t of report.totals) {
    lines.push(
      `${t.book.padEnd(5)} ${t.currency.padEnd(9)} ${String(t.accounts).padStart(8)}  ${decimal(t.postedUnits, t.currency).padStart(12)}  ${decimal(t.balanceUnits, t.currency).padStart(12)}`,
    );
  }
  if (report.totals.length === 0) lines.push('(no accounts yet)');
  if (!report.ok) {
    lines.push('', `mismatches (${report.mismatches.length}):`);
    for (const m of reportSummary(report).mismatches) lines.push(`  ${JSON.stringify(m)}`);
  }
  return lines.join('\n');
}

export type VerificationSchedule = {
  /** Runs one check now (skipped, returning null, while another is running). */
  runOnce(): Promise<VerifyReport | null>;
  stop(): void;
};

/**
 * Runs the verification every `intervalMs` (first run one interval after start). A mismatch is
 * logged at error level with LEDGER_ALARM_MESSAGE; a failure to run is logged as a warning.
 */
export function scheduleVerification(deps: {
  verify: () => Promise<VerifyReport>;
  log: Logger;
  intervalMs: number;
}): VerificationSchedule {
  let running = false;
  async function runOnce(): Promise<VerifyReport | null> {
    if (running) return null;
    running = true;
    try {
      const report = await deps.verify();
      if (report.ok) {
        deps.log.info({ entries: report.entries, durationMs: report.durationMs }, 'ledger verification ok');
      } else {
        deps.log.error({ ledger: reportSummary(report) }, LEDGER_ALARM_MESSAGE);
      }
      return report;
    } catch (error) {
      deps.log.warn({ err: error }, 'ledger verification could not run');
      return null;
    } finally {
      running = false;
    }
  }
  const timer = setInterval(() => void runOnce(), deps.intervalMs);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
