import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Refusal } from '../../http/refusal.ts';
import type {
  AccountRef,
  Bucket,
  CustomerAccountType,
  EntryInput,
  PlatformCode,
  PostingInput,
} from './model.ts';
import { customerId, type LedgerFixture, openLedgerFixture, ref } from './testing.ts';

/**
 * Random sequences of credits, debits, own-account transfers, freezes, unfreezes, reversals,
 * replays and batches, run against the ledger and against a naive reference model (a map of
 * balances, applied posting by posting). After every sequence: the ledger agrees with the model,
 * verify() is clean, no balance is negative, and every currency still sums to zero — no minor unit
 * was created or lost. fast-check prints the seed and the shrunk sequence on failure.
 */
let f: LedgerFixture;
beforeAll(async () => {
  f = await openLedgerFixture();
});
afterAll(async () => {
  await f.close();
});

const CURRENCIES = ['USDT', 'BTC'] as const;
const TYPES = ['spot', 'contract', 'earn'] as const satisfies readonly CustomerAccountType[];
const PLATFORMS = [
  'deposits_clearing',
  'withdrawals_clearing',
  'fee_income',
] as const satisfies readonly PlatformCode[];

type Simple =
  | { op: 'credit'; c: number; type: CustomerAccountType; cur: string; amount: bigint }
  | {
      op: 'debit';
      c: number;
      type: CustomerAccountType;
      cur: string;
      amount: bigint;
      bucket: Bucket;
      to: PlatformCode;
    }
  | {
      op: 'transfer';
      c: number;
      from: CustomerAccountType;
      to: CustomerAccountType;
      cur: string;
      amount: bigint;
    }
  | { op: 'freeze' | 'unfreeze'; c: number; type: CustomerAccountType; cur: string; amount: bigint };
type Op =
  | Simple
  | { op: 'reverse'; pick: number }
  | { op: 'replay'; pick: number }
  | { op: 'batch'; ops: Simple[] };

const customer = fc.integer({ min: 0, max: 2 });
const type = fc.constantFrom(...TYPES);
const cur = fc.constantFrom(...CURRENCIES);
const amount = fc.bigInt({ min: 1n, max: 60n });
const simple: fc.Arbitrary<Simple> = fc.oneof(
  fc.record({
    op: fc.constant('credit' as const),
    c: customer,
    type,
    cur,
    amount: fc.bigInt({ min: 1n, max: 100n }),
  }),
  fc.record({
    op: fc.constant('debit' as const),
    c: customer,
    type,
    cur,
    amount,
    bucket: fc.constantFrom<Bucket>('available', 'frozen'),
    to: fc.constantFrom<PlatformCode>('withdrawals_clearing', 'fee_income'),
  }),
  fc
    .record({ op: fc.constant('transfer' as const), c: customer, from: type, to: type, cur, amount })
    .filter((t) => t.from !== t.to),
  fc.record({ op: fc.constantFrom('freeze' as const, 'unfreeze' as const), c: customer, type, cur, amount }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: simple, weight: 6 },
  { arbitrary: fc.record({ op: fc.constant('reverse' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('replay' as const), pick: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constant('batch' as const),
      ops: fc.array(simple, { minLength: 1, maxLength: 8 }),
    }),
    weight: 1,
  },
);

/** The naive reference: balances per (account, bucket), an entry applied posting by posting. */
class Model {
  balances = new Map<string, bigint>();
  entries = new Map<string, { postings: PostingInput[]; reversed: boolean }>();
  negativeAllowed = new Set<string>();

  slot(account: AccountRef, currency: string, bucket: Bucket): string {
    const owner =
      'platform' in account ? `p:${account.platform}` : `c:${account.customerId}:${account.accountType}`;
    return `${owner}|${currency}|${bucket}`;
  }

  /** 'ok', or the refusals the ledger may give for this entry. */
  apply(postings: readonly PostingInput[]): 'ok' | Set<string> {
    const next = new Map(this.balances);
    for (const p of postings) {
      const slot = this.slot(p.account, p.currency, p.bucket ?? 'available');
      next.set(slot, (next.get(slot) ?? 0n) + p.amountUnits);
    }
    const reasons = new Set<string>();
    for (const [slot, value] of next) {
      if (value < 0n && !this.negativeAllowed.has(slot)) {
        reasons.add(slot.endsWith('|frozen') ? 'INSUFFICIENT_FROZEN' : 'INSUFFICIENT_BALANCE');
      }
    }
    if (reasons.size > 0) return reasons;
    this.balances = next;
    return 'ok';
  }
}

describe('ledger properties (fast-check, against a reference model, on PostgreSQL)', () => {
  it('random operation sequences keep every invariant', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        run += 1;
        const customers = [customerId(), customerId(), customerId()];
        const acct = (c: number, accountType: CustomerAccountType): AccountRef => ({
          book: 'real',
          customerId: customers[c]!,
          accountType,
        });
        const platform = (code: PlatformCode): AccountRef => ({ book: 'real', platform: code });
        const model = new Model();
        for (const code of ['deposits_clearing', 'withdrawals_clearing'] as const) {
          for (const currency of CURRENCIES)
            model.negativeAllowed.add(model.slot(platform(code), currency, 'available'));
        }
        // Platform accounts are shared by all runs: the model starts from what they hold now.
        for (const row of await f.ledger.platformBalances(f.db, { book: 'real' })) {
          model.balances.set(
            model.slot(platform(row.platform), row.currency, 'available'),
            row.availableUnits,
          );
        }

        const postingsOf = (s: Simple): PostingInput[] => {
          switch (s.op) {
            case 'credit':
              return [
                { account: acct(s.c, s.type), currency: s.cur, amountUnits: s.amount },
                { account: platform('deposits_clearing'), currency: s.cur, amountUnits: -s.amount },
              ];
            case 'debit':
              return [
                { account: acct(s.c, s.type), currency: s.cur, bucket: s.bucket, amountUnits: -s.amount },
                { account: platform(s.to), currency: s.cur, amountUnits: s.amount },
              ];
            case 'transfer':
              return [
                { account: acct(s.c, s.from), currency: s.cur, amountUnits: -s.amount },
                { account: acct(s.c, s.to), currency: s.cur, amountUnits: s.amount },
              ];
            default: {
              const [from, to]: Bucket[] =
                s.op === 'freeze' ? ['available', 'frozen'] : ['frozen', 'available'];
              return [
                { account: acct(s.c, s.type), currency: s.cur, bucket: from, amountUnits: -s.amount },
                { account: acct(s.c, s.type), currency: s.cur, bucket: to, amountUnits: s.amount },
              ];
            }
          }
        };
        /** Runs one simple op through the ledger's helper for it. */
        const viaHelper = (s: Simple, idempotencyKey: string) => {
          const meta = { reference: ref(), idempotencyKey };
          const base = {
            book: 'real' as const,
            customerId: customers[s.c]!,
            currency: s.cur,
            amountUnits: s.amount,
          };
          switch (s.op) {
            case 'credit':
              return f.ledger.credit(f.db, {
                ...base,
                ...meta,
                accountType: s.type,
                from: 'deposits_clearing',
              });
            case 'debit':
              return f.ledger.debit(f.db, {
                ...base,
                ...meta,
                accountType: s.type,
                bucket: s.bucket,
                to: s.to,
              });
            case 'transfer':
              return f.ledger.transfer(f.db, { ...base, ...meta, fromType: s.from, toType: s.to });
            case 'freeze':
              return f.ledger.freeze(f.db, { ...base, ...meta, accountType: s.type });
            default:
              return f.ledger.unfreeze(f.db, { ...base, ...meta, accountType: s.type });
          }
        };

        const history: Array<{ s: Simple; key: string }> = [];
        const posted: string[] = [];
        const keyPosted = new Map<string, string>();
        const outcome = async (work: Promise<{ id: string; replayed: boolean }>) => {
          try {
            return { ok: true as const, entry: await work };
          } catch (error) {
            if (error instanceof Refusal) return { ok: false as const, reason: error.reason };
            throw error;
          }
        };
        const runSimple = async (s: Simple, key: string) => {
          const result = await outcome(viaHelper(s, key));
          const prior = keyPosted.get(key);
          if (prior !== undefined) {
            expect(result).toEqual({
              ok: true,
              entry: expect.objectContaining({ id: prior, replayed: true }),
            });
            return;
          }
          const expected = model.apply(postingsOf(s));
          if (expected === 'ok') {
            expect(result.ok, `${JSON.stringify(s, (_k, v) => (typeof v === 'bigint' ? `${v}` : v))}`).toBe(
              true,
            );
            if (result.ok) {
              model.entries.set(result.entry.id, { postings: postingsOf(s), reversed: false });
              posted.push(result.entry.id);
              keyPosted.set(key, result.entry.id);
            }
          } else {
            expect(result.ok).toBe(false);
            if (!result.ok) expect(expected.has(result.reason), result.reason).toBe(true);
          }
        };

        for (const [i, o] of ops.entries()) {
          const key = `prop:${run}:${i}:${customers[0]}`;
          if (o.op === 'reverse') {
            if (posted.length === 0) continue;
            const target = posted[o.pick % posted.length]!;
            const original = model.entries.get(target)!;
            const result = await outcome(f.ledger.reverse(f.db, { entryId: target, idempotencyKey: key }));
            if (original.reversed) {
              expect(result).toEqual({ ok: false, reason: 'ENTRY_ALREADY_REVERSED' });
              continue;
            }
            const negated = original.postings.map((p) => ({ ...p, amountUnits: -p.amountUnits }));
            const expected = model.apply(negated);
            expect(result.ok).toBe(expected === 'ok');
            if (result.ok) original.reversed = true;
          } else if (o.op === 'replay') {
            if (history.length === 0) continue;
            const earlier = history[o.pick % history.length]!;
            await runSimple(earlier.s, earlier.key);
          } else if (o.op === 'batch') {
            const entries: EntryInput[] = o.ops.map((s, j) => ({
              reason: 'batch',
              reference: ref(),
              idempotencyKey: `${key}:${j}`,
              postings: postingsOf(s),
            }));
            const outcomes = await f.ledger.postBatch(f.db, entries);
            outcomes.forEach((result, j) => {
              const expected = model.apply(entries[j]!.postings);
              expect(result.ok).toBe(expected === 'ok');
              if (result.ok) {
                model.entries.set(result.entry.id, { postings: [...entries[j]!.postings], reversed: false });
                posted.push(result.entry.id);
              } else if (expected !== 'ok') {
                expect(expected.has(result.refusal.reason)).toBe(true);
              }
            });
          } else {
            history.push({ s: o, key });
            await runSimple(o, key);
          }
        }

        // The ledger agrees with the model, to the unit.
        for (const [c, id] of customers.entries()) {
          for (const row of await f.ledger.balances(f.db, { customerId: id })) {
            const account = acct(c, row.accountType as CustomerAccountType);
            expect(row.availableUnits).toBe(
              model.balances.get(model.slot(account, row.currency, 'available')) ?? 0n,
            );
            expect(row.frozenUnits).toBe(
              model.balances.get(model.slot(account, row.currency, 'frozen')) ?? 0n,
            );
            expect(row.availableUnits >= 0n && row.frozenUnits >= 0n).toBe(true);
          }
        }
        for (const row of await f.ledger.platformBalances(f.db, { book: 'real' })) {
          if (!(PLATFORMS as readonly string[]).includes(row.platform)) continue;
          expect(row.availableUnits).toBe(
            model.balances.get(model.slot(platform(row.platform), row.currency, 'available')),
          );
        }
        const report = await f.ledger.verify();
        expect(report.mismatches).toEqual([]);
        // Conservation: in every currency, all balances together are exactly zero.
        for (const total of report.totals) expect(total.balanceUnits).toBe(0n);
      }),
      { numRuns: 30 },
    );
  });
});
