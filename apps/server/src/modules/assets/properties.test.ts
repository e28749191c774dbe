import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/harness.ts';
import { expectLogLine, testLogger } from '../../../test/logwatch.ts';
import { createDb, type Db } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { Refusal } from '../../http/refusal.ts';
import { manualClock } from '../../lib/clock.ts';
import { DEMO_CUSTODY_XPUB } from '../deposits/derive.ts';
import { createEmbeddedProvider } from '../deposits/provider.ts';
import { createDeposits, type Deposits } from '../deposits/service.ts';
import { createLedger, type Ledger } from '../ledger/index.ts';
import { customerSummaries } from '../staff/customer-context.ts';
import { type Assets, createAssets } from './service.ts';

/**
 * Random sequences of deposits (through the webhook service, with replays, failures, partial
 * confirmations and held minimums), transfers, freezes/unfreezes and reversals, driven through the
 * services on PostgreSQL. After every step: the ledger verifies, nothing is negative, and each
 * customer holds exactly what was credited to them minus what was reversed — no minor unit created.
 */
let database: { url: string; drop(): Promise<void> };
let db: Db;
let ledger: Ledger;
let assets: Assets;
let deposits: Deposits;
const clock = manualClock(new Date('2026-11-21T04:00:00Z'));

const CUSTOMERS = ['usr_PROPA', 'usr_PROPB'] as const;
const TYPES = ['spot', 'contract', 'options', 'earn', 'funding'] as const;
const CHAINS: Record<string, { chain: string; family: string }> = {
  USDT: { chain: 'ERC20', family: 'evm' },
  BTC: { chain: 'BTC', family: 'btc' },
  TRX: { chain: 'TRC20', family: 'tron' },
};

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, { max: 5 }).db;
  const log = testLogger();
  ledger = createLedger({ db, clock, log });
  assets = createAssets({
    db,
    ledger,
    clock,
    market: {
      ticker: () => {
        throw new Error('no prices here');
      },
    },
  });
  const provider = createEmbeddedProvider({
    db,
    clock,
    xpub: DEMO_CUSTODY_XPUB,
    webhookSecret: () => 'unused',
  });
  const audit = { record: async () => ({ id: 'aud_test', hash: '0' }) };
  deposits = createDeposits({
    db,
    ledger,
    clock,
    log,
    provider,
    audit,
    customerSummaries: (ids, now) => customerSummaries(db, ids, now, async () => new Map()),
    // Deposits here are driven through the webhook service; no route asks for verification.
    requireFeature: async () => {},
    // No bank deposit here: nothing claims or shows a remittance proof.
    uploads: {
      attach: async () => {
        throw new Error('no bank deposits in this test');
      },
      staffLinks: async () => {
        throw new Error('no bank deposits in this test');
      },
    },
    documentRetainUntil: async () => {
      throw new Error('no bank deposits in this test');
    },
  });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const auth = (customerId: string): AuthContext => ({
  customerId,
  sessionId: 'ses_x',
  isDemo: false,
  token: 'tok',
});

type Cmd =
  | { k: 'deposit'; c: number; currency: string; amount: string; tx: number; conf: number; failed: boolean }
  | { k: 'transfer'; c: number; currency: string; from: number; to: number; amount: string }
  | { k: 'freeze' | 'unfreeze'; c: number; currency: string; type: number; units: bigint }
  | { k: 'reverse'; pick: number };

const amountArb = fc.oneof(
  fc.constantFrom('1', '0.5', '2.25', '10', '0.00000001', '100', '3'),
  fc.integer({ min: 1, max: 5000 }).map((n) => String(n)),
);
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('deposit' as const),
      c: fc.integer({ min: 0, max: 1 }),
      currency: fc.constantFrom('USDT', 'BTC', 'TRX'),
      amount: amountArb,
      tx: fc.integer({ min: 0, max: 6 }),
      conf: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.constant(30)),
      failed: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      k: fc.constant('transfer' as const),
      c: fc.integer({ min: 0, max: 1 }),
      currency: fc.constantFrom('USDT', 'BTC', 'TRX'),
      // Deposits land in spot: most transfers start there so they have funds to move.
      from: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 4 })),
      to: fc.integer({ min: 0, max: 4 }),
      amount: fc.constantFrom('0.00000001', '0.5', '1', '2.25', '7', '1000000'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constantFrom('freeze' as const, 'unfreeze' as const),
      c: fc.integer({ min: 0, max: 1 }),
      currency: fc.constantFrom('USDT', 'BTC', 'TRX'),
      type: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 })),
      units: fc.bigInt({ min: 1n, max: 300_000_000n }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('reverse' as const), pick: fc.nat() }) },
);

let run = 0;
let keyN = 0;

describe('property: random money sequences keep every invariant', () => {
  it('ledger verifies, nothing negative, no minor unit created', async () => {
    // A replayed deposit may come back "failed" after it was credited: custody taking back a credited
    // deposit is logged for staff review (deliberately at error level) whenever the draw makes one.
    expectLogLine(/custody reported a credited deposit as failed/, { optional: true });
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 5, maxLength: 30 }), async (cmds) => {
        run += 1;
        const ids = CUSTOMERS.map((c) => `${c}${run}`);
        const addresses: Record<string, string> = {};
        for (const id of ids) {
          for (const currency of Object.keys(CHAINS)) {
            const { chain } = CHAINS[currency] as { chain: string };
            addresses[`${id}:${currency}`] = await deposits
              .address(auth(id), currency, chain)
              .then((a) => a.address);
          }
        }
        // Each run starts with one confirmed deposit per customer and currency, through the webhook path.
        for (const id of ids) {
          for (const currency of Object.keys(CHAINS)) {
            const { chain } = CHAINS[currency] as { chain: string };
            await deposits.handleEvent({
              type: 'deposit',
              chain,
              txid: `run${run}seed${currency}${id.slice(-6)}`,
              output_index: 0,
              address: addresses[`${id}:${currency}`] as string,
              currency,
              amount: '50',
              confirmations: 30,
              status: 'success',
            });
          }
        }
        const entries: string[] = [];
        for (const cmd of cmds) {
          try {
            if (cmd.k === 'deposit') {
              const id = ids[cmd.c] as string;
              const { chain } = CHAINS[cmd.currency] as { chain: string };
              await deposits.handleEvent({
                type: 'deposit',
                chain,
                // A small txid space makes replays and "same output, other amount" happen.
                txid: `run${run}tx${cmd.tx}${cmd.currency}${cmd.c}${cmd.amount.replace('.', 'd')}`,
                output_index: 0,
                address: addresses[`${id}:${cmd.currency}`] as string,
                currency: cmd.currency,
                amount: cmd.amount,
                confirmations: cmd.conf,
                status: cmd.failed ? 'failed' : 'success',
              });
            } else if (cmd.k === 'transfer') {
              const out = await assets.transfer(auth(ids[cmd.c] as string), {
                currency: cmd.currency,
                amount: cmd.amount,
                from: TYPES[cmd.from] as string,
                to: TYPES[cmd.to] as string,
              });
              entries.push(out.entry_id);
            } else if (cmd.k === 'freeze' || cmd.k === 'unfreeze') {
              keyN += 1;
              const posted = await ledger[cmd.k](db, {
                book: 'real',
                customerId: ids[cmd.c] as string,
                accountType: TYPES[cmd.type] as 'spot',
                currency: cmd.currency,
                amountUnits: cmd.units,
                reference: { type: 'test', id: `f${keyN}` },
                idempotencyKey: `prop:${run}:${keyN}`,
              });
              entries.push(posted.id);
            } else {
              const credited = await db
                .selectFrom('deposits_crypto')
                .select('entry_id')
                .where('customer_id', 'in', ids)
                .where('entry_id', 'is not', null)
                .execute();
              const pool = [...entries, ...credited.map((r) => r.entry_id as string)];
              if (pool.length === 0) continue;
              const target = pool[(cmd as { pick: number }).pick % pool.length] as string;
              keyN += 1;
              await ledger.reverse(db, { entryId: target, idempotencyKey: `prop-rev:${run}:${keyN}` });
            }
          } catch (error) {
            if (!(error instanceof Refusal)) throw error;
          }

          const report = await ledger.verify();
          expect(report.ok).toBe(true);
          const { rows: negatives } = await sql<{ n: string }>`
            select count(*)::text as n from ledger_account
             where customer_id is not null and (available < 0 or frozen < 0)`.execute(db);
          expect(negatives[0]?.n).toBe('0');
          // What customers hold per currency = credited deposits − reversed deposit credits.
          const { rows } = await sql<{ currency: string; held: string; credited: string }>`
            select a.currency,
                   (select coalesce(sum(available + frozen), 0) from ledger_account x
                     where x.customer_id in (${sql.join(ids)}) and x.currency = a.currency)::text as held,
                   (select coalesce(sum(p.amount), 0) from ledger_posting p
                      join ledger_account acc on acc.id = p.account_id
                      join ledger_entry e on e.id = p.entry_id
                     where acc.customer_id in (${sql.join(ids)}) and acc.currency = a.currency
                       and (e.reason like 'deposit.%' or e.reverses_entry_id in
                            (select id from ledger_entry where reason like 'deposit.%')))::text as credited
              from (select distinct currency from ledger_account where customer_id in (${sql.join(ids)})) a`.execute(
            db,
          );
          for (const r of rows) expect(r.held, r.currency).toBe(r.credited);
          // And every credited deposit row has exactly one credit entry.
          const { rows: dup } = await sql<{ n: string }>`
            select count(*)::text as n from (
              select idempotency_key from ledger_entry where idempotency_key like ${`deposit:%run${run}tx%`}
              group by idempotency_key having count(*) > 1) d`.execute(db);
          expect(dup[0]?.n).toBe('0');
        }
      }),
      { numRuns: 30 },
    );
    // The sequences really moved money: credits, held deposits, transfers and reversals happened.
    const { rows } = await sql<{ reason: string; n: string }>`
      select reason, count(*)::text as n from ledger_entry group by reason`.execute(db);
    console.log(
      rows,
      await db.selectFrom('deposits_crypto').select(['status', 'confirmations', 'chain']).execute(),
    );
    const count = (reason: string) => Number(rows.find((r) => r.reason === reason)?.n ?? 0);
    expect(count('deposit.crypto')).toBeGreaterThan(5);
    expect(count('transfer')).toBeGreaterThan(5);
    expect(count('reversal')).toBeGreaterThan(0);
    expect(count('freeze') + count('unfreeze')).toBeGreaterThan(0);
    const held = await db
      .selectFrom('deposits_crypto')
      .select('id')
      .where('released_by', '=', 'cumulative')
      .execute();
    const states = await db.selectFrom('deposits_crypto').select('status').distinct().execute();
    expect(states.map((s) => s.status).sort()).toEqual(
      expect.arrayContaining(['credited', 'failed', 'pending']),
    );
    expect(held.length + states.length).toBeGreaterThan(0);
  }, 240_000);
});
