import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/harness.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { customerId, key, type LedgerFixture, openLedgerFixture, ref, usdt } from './testing.ts';
import { LEDGER_ALARM_MESSAGE, scheduleVerification, type VerifyReport } from './verify.ts';

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '../../../../..');

let f: LedgerFixture;
beforeAll(async () => {
  f = await openLedgerFixture();
});
afterAll(async () => {
  await f.close();
});

/** Runs `npm run ledger:verify`'s script against the fixture's database; returns exit code and output. */
async function cli(): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, ['scripts/ledger-verify.ts'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: f.url, LOG_LEVEL: 'silent' },
    });
    return { code: 0, stdout };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

function recordingLog() {
  const lines: Array<{ level: string; message: string; data: unknown }> = [];
  const at =
    (level: string) =>
    (data: unknown, message?: string): void => {
      lines.push({ level, message: message ?? String(data), data });
    };
  const log = { info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  return { log, lines };
}

async function activity() {
  const c = customerId();
  await f.ledger.credit(f.db, {
    book: 'real',
    customerId: c,
    accountType: 'spot',
    currency: 'ETH',
    amountUnits: 10n ** 18n,
    from: 'deposits_clearing',
    reference: ref(),
    idempotencyKey: key(),
  });
  await f.ledger.grantDemoFunds(f.db, { customerId: customerId(), idempotencyKey: key() });
  return c;
}

describe('ledger verification', () => {
  it('is clean on an empty ledger', async () => {
    expect(await f.ledger.verify()).toMatchObject({ ok: true, entries: 0, totals: [], mismatches: [] });
  });

  it('proves each book and currency after activity', async () => {
    await activity();
    const report = await f.ledger.verify();
    expect(report.ok).toBe(true);
    expect(report.totals).toEqual([
      { book: 'demo', currency: 'USDT', postedUnits: 0n, balanceUnits: 0n, accounts: 2 },
      { book: 'real', currency: 'ETH', postedUnits: 0n, balanceUnits: 0n, accounts: 2 },
    ]);
    expect(report).toMatchObject({ entries: 2, postings: 4, accounts: 4 });
  });

  it('the scheduled check logs ok, skips an overlapping run, and warns when it cannot run', async () => {
    const { log, lines } = recordingLog();
    let release: (report: VerifyReport) => void = () => {};
    const schedule = scheduleVerification({
      verify: () => new Promise<VerifyReport>((resolve) => (release = resolve)),
      log,
      intervalMs: 3_600_000,
    });
    const first = schedule.runOnce();
    expect(await schedule.runOnce()).toBeNull();
    release(await f.ledger.verify());
    expect((await first)?.ok).toBe(true);
    expect(lines.map((l) => [l.level, l.message])).toEqual([['info', 'ledger verification ok']]);
    schedule.stop();

    const failing = recordingLog();
    const broken = scheduleVerification({
      verify: () => Promise.reject(new Error('database down')),
      log: failing.log,
      intervalMs: 3_600_000,
    });
    expect(await broken.runOnce()).toBeNull();
    expect(failing.lines.map((l) => l.level)).toEqual(['warn']);
    broken.stop();
  });

  it('the CLI prints the report and exits 0 on a clean ledger', async () => {
    const { code, stdout } = await cli();
    expect(stdout).toContain('ledger verification OK');
    expect(stdout).toMatch(/real\s+ETH\s+2\s+0\s+0/);
    expect(code).toBe(0);
  });

  it('the server builds with the scheduled check; its interval is validated', async () => {
    const t = await startTestApp();
    try {
      expect(t.config.ledgerVerifyIntervalMs).toBe(600_000);
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
    expect(loadConfig({ LEDGER_VERIFY_INTERVAL_MS: '60000' }).ledgerVerifyIntervalMs).toBe(60_000);
    expect(() => loadConfig({ LEDGER_VERIFY_INTERVAL_MS: '10' })).toThrow(ConfigError);
    expect(() => loadConfig({ LEDGER_VERIFY_INTERVAL_MS: 'often' })).toThrow(/LEDGER_VERIFY_INTERVAL_MS/);
  });

  // The tests below damage the database behind the ledger's back, so they run last.
  it('finds a balance that differs from its postings, and the scheduled check raises the alarm', async () => {
    const c = await activity();
    await sql`update ledger_account set available = available + 1 where customer_id = ${c}`.execute(f.db);
    const report = await f.ledger.verify();
    expect(report.ok).toBe(false);
    expect(report.mismatches).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'account_balance',
          currency: 'ETH',
          availableUnits: 10n ** 18n + 1n,
        }),
        expect.objectContaining({ kind: 'book_total', book: 'real', currency: 'ETH', balanceUnits: 1n }),
      ]),
    );
    const { log, lines } = recordingLog();
    const schedule = scheduleVerification({ verify: () => f.ledger.verify(), log, intervalMs: 3_600_000 });
    await schedule.runOnce();
    schedule.stop();
    expect(lines.map((l) => [l.level, l.message])).toEqual([['error', LEDGER_ALARM_MESSAGE]]);
    expect(JSON.stringify(lines[0]?.data)).toContain('account_balance');
    const { code, stdout } = await cli();
    expect(code).toBe(1);
    expect(stdout).toContain('ledger verification FAILED');
  });

  it('finds an entry whose postings do not sum to zero', async () => {
    const posted = await f.ledger.credit(f.db, {
      book: 'real',
      customerId: customerId(),
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: usdt(1),
      from: 'deposits_clearing',
      reference: ref(),
      idempotencyKey: key(),
    });
    const detail = await f.ledger.entry(f.db, posted.id);
    await sql`insert into ledger_posting (entry_id, account_id, book, currency, bucket, amount)
              values (${posted.id}, ${detail!.postings[0]!.accountId}, 'real', 'USDT', 'available', 7)`.execute(
      f.db,
    );
    const report = await f.ledger.verify();
    expect(report.mismatches).toEqual(
      expect.arrayContaining([
        { kind: 'entry_unbalanced', entryId: posted.id, currency: 'USDT', sumUnits: 7n, postings: 3 },
        expect.objectContaining({ kind: 'book_total', currency: 'USDT', postedUnits: 7n }),
      ]),
    );
  });
});
