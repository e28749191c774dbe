import { parseDecimal } from '@bourse/money';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { expectLogLine } from '../../../test/logwatch.ts';
import { Refusal } from '../../http/refusal.ts';
import { SIGNATURE_HEADER, signWebhook } from '../../lib/webhook.ts';
import type { Ledger } from '../ledger/index.ts';
import { adminCall, type StaffLogin, staffSession } from '../staff/testing.ts';
import {
  addAddress,
  customer,
  ledgerOf,
  webhook as payoutWebhook,
  setRule,
  WEBHOOK_SECRET,
  withdraw,
} from '../withdrawals/testing.ts';

/**
 * Issue 4: random sequences of every money flow, through the real app on PostgreSQL — crypto
 * deposits through the signed custody webhook (replays, unconfirmed and failed events), transfers
 * between account types, withdrawal requests, customer cancels, staff approvals and rejections,
 * payout webhooks (confirmed and failed), reversals of deposit credits, and staff adjustments
 * (credit and debit). A model predicts every balance and whether each step succeeds. After every
 * step: the ledger verifies, nothing is negative, each account equals the model, each customer's
 * total = deposits credited − reversed − withdrawals settled (amount incl. fee) ± adjustments, and
 * frozen = the sum of pending and processing withdrawals.
 */
const TYPES = ['spot', 'contract', 'options', 'earn', 'funding'] as const;
const FEE_BPS = 150n;
const CONFIRMATIONS = 12; // the seeded USDT/ERC20 channel threshold

let t: TestApp;
let ledger: Ledger;
let finance: StaffLogin;

beforeAll(async () => {
  t = await startTestApp({
    feedTickMs: 0,
    custodyWebhookSecret: WEBHOOK_SECRET,
    // Every adjustment posts at once (the four-eyes path is tested in staff/backoffice.test.ts).
    adjustmentApprovalThresholdUsdt: '100000000',
  });
  ledger = ledgerOf(t);
  finance = await staffSession(t, ['finance']);
  // Rules are data: relax the ones that would block random sequences, keep a non-zero fee.
  await setRule(t, 'window', { enabled: false });
  await setRule(t, 'turnover', { enabled: false });
  await setRule(t, 'daily_count', { params: { max: 1000, timezone: 'Asia/Hong_Kong' } });
  await setRule(t, 'min_amount', { params: { amount: '1', currency: 'USDT' } });
  await setRule(t, 'fee', { params: { address_bps: Number(FEE_BPS), bank_bps: 500 } });
}, 60_000);
afterAll(async () => t?.close());

function units(text: string): bigint {
  const parsed = parseDecimal(text, { scale: 8, allowZero: true });
  if (!parsed.ok) throw new Error(`not a decimal: ${text}`);
  return parsed.units;
}

async function depositWebhook(body: object) {
  const raw = JSON.stringify(body);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    payload: raw,
    headers: {
      'content-type': 'application/json',
      [SIGNATURE_HEADER]: signWebhook(WEBHOOK_SECRET, raw, t.clock.now().getTime()),
    },
  });
  return { status: response.statusCode, ...response.json() };
}

type Cmd =
  | { k: 'deposit'; c: number; tx: number; conf: number; failed: boolean }
  | { k: 'transfer'; c: number; from: number; to: number; amount: string }
  | { k: 'withdraw'; c: number; amount: string }
  | { k: 'cancel' | 'approve' | 'reject' | 'confirm' | 'fail'; pick: number }
  | { k: 'adjust'; c: number; type: number; debit: boolean; amount: string }
  | { k: 'reverse'; pick: number };

const amountArb = fc.constantFrom('1', '2.5', '10', '33.33333333', '75', '120', '400', '0.00000001');
const c = fc.integer({ min: 0, max: 2 });
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('deposit' as const),
      c,
      // A small txid space per run: replays and "confirmed later" happen.
      tx: fc.integer({ min: 0, max: 5 }),
      conf: fc.oneof(fc.constant(CONFIRMATIONS), fc.integer({ min: 0, max: 20 })),
      failed: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('transfer' as const),
      c,
      from: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 4 })),
      to: fc.integer({ min: 0, max: 4 }),
      amount: amountArb,
    }),
  },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('withdraw' as const), c, amount: amountArb }) },
  {
    weight: 9,
    arbitrary: fc.record({
      k: fc.constantFrom(
        'cancel' as const,
        'approve' as const,
        'reject' as const,
        'confirm' as const,
        'fail' as const,
      ),
      pick: fc.nat(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('adjust' as const),
      c,
      type: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 })),
      debit: fc.boolean(),
      amount: amountArb,
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('reverse' as const), pick: fc.nat() }) },
);

type Wd = { id: string; c: number; amount: bigint; state: 'pending' | 'processing' | 'final' };
type Who = { token: string; customerId: string; addressId: string; address: string };

let run = 0;
let revN = 0;
const done: Record<string, number> = {};
const tally = (what: string) => {
  done[what] = (done[what] ?? 0) + 1;
};

describe('property: every money flow, at random, keeps every invariant', () => {
  it('ledger verifies, nothing negative, no minor unit created or lost, frozen = open withdrawals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 10, maxLength: 30 }), async (cmds) => {
        run += 1;
        const who: Who[] = [];
        for (let i = 0; i < 3; i++) {
          const x = await customer(t);
          const addressId = await addAddress(t, x.token);
          const recharge = await call(t.app, {
            method: 'GET',
            call: 'getRechargeAddress',
            fields: { token: x.token, currency: 'USDT', chain: 'ERC20' },
          });
          expect(recharge.code).toBe(1);
          who.push({ token: x.token, customerId: x.customerId, addressId, address: recharge.data.address });
        }
        // The model: available per customer and account type, frozen (spot), and the flows.
        const avail = who.map(() => TYPES.map(() => 0n));
        const model = who.map(() => ({ deposited: 0n, reversed: 0n, settled: 0n, adjusted: 0n }));
        const txState = new Map<string, 'pending' | 'failed' | 'credited'>();
        const credits: Array<{ c: number; entryId: string; amount: bigint; reversed: boolean }> = [];
        const wds: Wd[] = [];
        const ids = who.map((w) => w.customerId);
        // Each run starts with one confirmed 1000 USDT deposit per customer, through the webhook.
        for (let i = 0; i < who.length; i++) {
          const txid = `0x${process.pid.toString(16)}r${run}seed${i}`;
          const seeded = await depositWebhook({
            type: 'deposit',
            chain: 'ERC20',
            txid,
            output_index: 0,
            address: (who[i] as Who).address,
            currency: 'USDT',
            amount: '1000',
            confirmations: CONFIRMATIONS,
            status: 'success',
          });
          expect(seeded.data.credited).toBe(true);
          const row = await t.db
            .selectFrom('deposits_crypto')
            .select('entry_id')
            .where('txid', '=', txid)
            .executeTakeFirstOrThrow();
          credits.push({ c: i, entryId: row.entry_id as string, amount: units('1000'), reversed: false });
          (avail[i] as bigint[])[0] = units('1000');
          (model[i] as { deposited: bigint }).deposited = units('1000');
        }

        for (const cmd of cmds) {
          if (cmd.k === 'deposit') {
            const key = `r${run}c${cmd.c}t${cmd.tx}`;
            const amount = `${(cmd.tx + 1) * 40}.5`; // one amount per output: replays are exact
            const txid = `0x${process.pid.toString(16)}${key}`;
            const before = txState.get(key);
            // Custody taking back a credited deposit is logged for staff review.
            if (before === 'credited' && cmd.failed)
              expectLogLine(/custody reported a credited deposit as failed/);
            const answer = await depositWebhook({
              type: 'deposit',
              chain: 'ERC20',
              txid,
              output_index: 0,
              address: (who[cmd.c] as Who).address,
              currency: 'USDT',
              amount,
              confirmations: cmd.conf,
              status: cmd.failed ? 'failed' : 'success',
            });
            const credit =
              before !== 'credited' && before !== 'failed' && !cmd.failed && cmd.conf >= CONFIRMATIONS;
            if (answer.code === 1) expect(Boolean(answer.data.credited), key).toBe(credit);
            else expect(credit, `${key} refused: ${answer.reason}`).toBe(false);
            if (credit) {
              const row = await t.db
                .selectFrom('deposits_crypto')
                .select('entry_id')
                .where('txid', '=', txid)
                .executeTakeFirstOrThrow();
              credits.push({
                c: cmd.c,
                entryId: row.entry_id as string,
                amount: units(amount),
                reversed: false,
              });
              (avail[cmd.c] as bigint[])[0] = ((avail[cmd.c] as bigint[])[0] as bigint) + units(amount);
              (model[cmd.c] as { deposited: bigint }).deposited += units(amount);
              txState.set(key, 'credited');
              tally('deposit.credited');
            } else if (before === undefined || before === 'pending') {
              txState.set(key, cmd.failed ? 'failed' : 'pending');
            }
          } else if (cmd.k === 'transfer') {
            const a = avail[cmd.c] as bigint[];
            const amount = units(cmd.amount);
            const answer = await call(t.app, {
              call: 'transferAsset',
              fields: {
                token: (who[cmd.c] as Who).token,
                currency: 'USDT',
                amount: cmd.amount,
                from: TYPES[cmd.from] as string,
                to: TYPES[cmd.to] as string,
              },
            });
            const ok = cmd.from !== cmd.to && (a[cmd.from] as bigint) >= amount;
            expect(answer.code, `transfer ${answer.reason}`).toBe(ok ? 1 : 0);
            if (ok) {
              a[cmd.from] = (a[cmd.from] as bigint) - amount;
              a[cmd.to] = (a[cmd.to] as bigint) + amount;
              tally('transfer');
            }
          } else if (cmd.k === 'withdraw') {
            const a = avail[cmd.c] as bigint[];
            const amount = units(cmd.amount);
            const w = who[cmd.c] as Who;
            const answer = await withdraw(t, w.token, { address_id: w.addressId, amount: cmd.amount });
            const fee = (amount * FEE_BPS + 9_999n) / 10_000n;
            const ok = (a[0] as bigint) >= amount && amount >= units('1') && fee < amount;
            expect(answer.code, `withdraw ${cmd.amount}: ${answer.reason}`).toBe(ok ? 1 : 0);
            if (ok) {
              expect(units(answer.data.fee)).toBe(fee);
              a[0] = (a[0] as bigint) - amount;
              wds.push({ id: answer.data.id, c: cmd.c, amount, state: 'pending' });
              tally('withdraw');
            }
          } else if (cmd.k === 'cancel' || cmd.k === 'approve' || cmd.k === 'reject') {
            // Mostly an open request; every fourth pick may land on a decided one (must be refused).
            const pending = wds.filter((w) => w.state === 'pending');
            const pool = cmd.pick % 4 === 0 || pending.length === 0 ? wds : pending;
            if (pool.length === 0) continue;
            const wd = pool[Math.floor(cmd.pick / 4) % pool.length] as Wd;
            const answer =
              cmd.k === 'cancel'
                ? await call(t.app, {
                    call: 'cancelWithdraw',
                    fields: { token: (who[wd.c] as Who).token, withdrawal_id: wd.id },
                  })
                : await adminCall(t.app, {
                    call: `withdrawals/${cmd.k}`,
                    token: finance.token,
                    fields: {
                      withdrawal_id: wd.id,
                      reason: cmd.k === 'reject' ? 'random rejection' : 'random approval',
                    },
                  });
            expect(answer.code, `${cmd.k} ${wd.state}: ${answer.reason}`).toBe(
              wd.state === 'pending' ? 1 : 0,
            );
            if (answer.code === 1) {
              tally(cmd.k);
              if (cmd.k === 'approve') wd.state = 'processing';
              else {
                wd.state = 'final';
                const a = avail[wd.c] as bigint[];
                a[0] = (a[0] as bigint) + wd.amount;
              }
            }
          } else if (cmd.k === 'confirm' || cmd.k === 'fail') {
            const open = wds.filter((w) => w.state === 'processing');
            if (open.length === 0) continue;
            const wd = open[cmd.pick % open.length] as Wd;
            const payout = await t.db
              .selectFrom('withdrawals_payout')
              .select('id')
              .where('withdrawal_id', '=', wd.id)
              .executeTakeFirstOrThrow();
            const answer = await payoutWebhook(t, {
              event_id: `evt-${run}-${wd.id}`,
              withdrawal_id: wd.id,
              provider_ref: payout.id,
              status: cmd.k === 'confirm' ? 'confirmed' : 'failed',
              ...(cmd.k === 'confirm' ? { tx_hash: '0xfeed' } : {}),
            });
            expect(answer.code, `payout ${cmd.k}: ${answer.reason}`).toBe(1);
            wd.state = 'final';
            if (cmd.k === 'confirm') (model[wd.c] as { settled: bigint }).settled += wd.amount;
            else {
              const a = avail[wd.c] as bigint[];
              a[0] = (a[0] as bigint) + wd.amount;
            }
            tally(`payout.${cmd.k}`);
          } else if (cmd.k === 'adjust') {
            const a = avail[cmd.c] as bigint[];
            const amount = units(cmd.amount);
            const answer = await adminCall(t.app, {
              call: 'createAdjustment',
              token: finance.token,
              fields: {
                customer_id: (who[cmd.c] as Who).customerId,
                account_type: TYPES[cmd.type] as string,
                currency: 'USDT',
                direction: cmd.debit ? 'debit' : 'credit',
                amount: cmd.amount,
                reason: 'property test adjustment',
              },
            });
            const ok = !cmd.debit || (a[cmd.type] as bigint) >= amount;
            expect(answer.code, `adjust: ${answer.reason}`).toBe(ok ? 1 : 0);
            if (ok) {
              expect(answer.data.status).toBe('posted');
              const signed = cmd.debit ? -amount : amount;
              a[cmd.type] = (a[cmd.type] as bigint) + signed;
              (model[cmd.c] as { adjusted: bigint }).adjusted += signed;
              tally(cmd.debit ? 'adjust.debit' : 'adjust.credit');
            }
          } else {
            // Reversing a deposit credit (a chargeback): allowed while the funds are still in spot.
            if (credits.length === 0) continue;
            const credit = credits[cmd.pick % credits.length] as (typeof credits)[number];
            const a = avail[credit.c] as bigint[];
            const ok = !credit.reversed && (a[0] as bigint) >= credit.amount;
            let refused: string | null = null;
            try {
              await ledger.reverse(t.db, {
                entryId: credit.entryId,
                idempotencyKey: `prop-flow-rev:${run}:${credit.entryId}:${++revN}`,
              });
            } catch (error) {
              if (!(error instanceof Refusal)) throw error;
              refused = error.reason;
            }
            expect(refused, 'reverse').toEqual(ok ? null : expect.any(String));
            if (ok) {
              credit.reversed = true;
              a[0] = (a[0] as bigint) - credit.amount;
              (model[credit.c] as { reversed: bigint }).reversed += credit.amount;
              tally('reverse');
            }
          }

          // Invariants after every step.
          const report = await ledger.verify(t.db);
          expect(report.mismatches).toEqual([]);
          expect(report.ok).toBe(true);
          const { rows: negatives } = await sql<{ n: string }>`
            select count(*)::text as n from ledger_account
             where customer_id is not null and (available < 0 or frozen < 0)`.execute(t.db);
          expect(negatives[0]?.n).toBe('0');
          const accounts = await t.db
            .selectFrom('ledger_account')
            .select(['customer_id', 'account_type', 'currency', 'available', 'frozen', 'book'])
            .where('customer_id', 'in', ids)
            .execute();
          for (let i = 0; i < who.length; i++) {
            const mine = accounts.filter((r) => r.customer_id === ids[i]);
            expect(mine.every((r) => r.currency === 'USDT' && r.book === 'real')).toBe(true);
            const total = mine.reduce((s, r) => s + BigInt(r.available) + BigInt(r.frozen), 0n);
            const frozen = mine.reduce((s, r) => s + BigInt(r.frozen), 0n);
            const m = model[i] as { deposited: bigint; reversed: bigint; settled: bigint; adjusted: bigint };
            // No minor unit created or lost: what they hold is exactly what flowed in and out.
            expect(total, `customer ${i} total`).toBe(m.deposited - m.reversed - m.settled + m.adjusted);
            const open = wds
              .filter((w) => w.c === i && w.state !== 'final')
              .reduce((s, w) => s + w.amount, 0n);
            expect(frozen, `customer ${i} frozen`).toBe(open);
            for (let j = 0; j < TYPES.length; j++) {
              const row = mine.find((r) => r.account_type === TYPES[j]);
              expect(BigInt(row?.available ?? 0), `customer ${i} ${TYPES[j]}`).toBe(
                (avail[i] as bigint[])[j],
              );
            }
          }
        }
      }),
      // A fixed seed (override with PROPERTY_SEED) so the "every flow happened" check below cannot
      // flake; a failure prints the seed and the shrunk sequence either way.
      { numRuns: 30, seed: Number(process.env.PROPERTY_SEED ?? 20261121) },
    );
    // The sequences really moved money, through every flow.
    console.log('money-flows property: successful operations', done);
    expect(done['deposit.credited'] ?? 0).toBeGreaterThan(10);
    for (const what of [
      'transfer',
      'withdraw',
      'cancel',
      'approve',
      'reject',
      'payout.confirm',
      'payout.fail',
      'adjust.credit',
      'adjust.debit',
      'reverse',
    ]) {
      expect(done[what] ?? 0, what).toBeGreaterThan(0);
    }
  }, 120_000);
});
