import { describe, expect, it } from 'vitest';
import {
  type AccountRef,
  applyEntry,
  type BalanceState,
  type EntryDraft,
  LedgerInvariantError,
  normalizeEntry,
  type PostingInput,
} from './model.ts';

const alice: AccountRef = { book: 'real', customerId: 'usr_alice', accountType: 'spot' };
const aliceContract: AccountRef = { book: 'real', customerId: 'usr_alice', accountType: 'contract' };
const clearing: AccountRef = { book: 'real', platform: 'deposits_clearing' };

function draft(postings: PostingInput[], extra: Partial<EntryDraft> = {}): EntryDraft {
  return {
    reason: 'deposit',
    reference: { type: 'test', id: '1' },
    idempotencyKey: 'k1',
    postings,
    ...extra,
  };
}

const deposit = (units: bigint) =>
  draft([
    { account: alice, currency: 'USDT', amountUnits: units },
    { account: clearing, currency: 'USDT', amountUnits: -units },
  ]);

describe('normalizeEntry: a malformed entry is a bug and throws', () => {
  const bad: Array<[string, EntryDraft]> = [
    ['one posting', draft([{ account: alice, currency: 'USDT', amountUnits: 1n }])],
    ['no postings', draft([])],
    [
      'a zero posting',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 0n },
        { account: clearing, currency: 'USDT', amountUnits: 0n },
      ]),
    ],
    [
      'postings not summing to zero',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 2n },
        { account: clearing, currency: 'USDT', amountUnits: -1n },
      ]),
    ],
    [
      'a sum of zero only across currencies',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 1n },
        { account: clearing, currency: 'BTC', amountUnits: -1n },
      ]),
    ],
    [
      'two books',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 1n },
        { account: { book: 'demo', platform: 'demo_faucet' }, currency: 'USDT', amountUnits: -1n },
      ]),
    ],
    [
      'an unknown currency',
      draft([
        { account: alice, currency: 'DOGE', amountUnits: 1n },
        { account: clearing, currency: 'DOGE', amountUnits: -1n },
      ]),
    ],
    [
      'a lower-case currency',
      draft([
        { account: alice, currency: 'usdt', amountUnits: 1n },
        { account: clearing, currency: 'usdt', amountUnits: -1n },
      ]),
    ],
    [
      'a float amount',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 1.5 as unknown as bigint },
        { account: clearing, currency: 'USDT', amountUnits: -1.5 as unknown as bigint },
      ]),
    ],
    [
      'an enormous amount',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 10n ** 40n },
        { account: clearing, currency: 'USDT', amountUnits: -(10n ** 40n) },
      ]),
    ],
    [
      'an unknown platform account',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 1n },
        {
          account: { book: 'real', platform: 'printer' as 'fee_income' },
          currency: 'USDT',
          amountUnits: -1n,
        },
      ]),
    ],
    [
      'the demo faucet in the real book',
      draft([
        { account: alice, currency: 'USDT', amountUnits: 1n },
        { account: { book: 'real', platform: 'demo_faucet' }, currency: 'USDT', amountUnits: -1n },
      ]),
    ],
    [
      'an unknown account type',
      draft([
        { account: { ...alice, accountType: 'savings' as 'spot' }, currency: 'USDT', amountUnits: 1n },
        { account: clearing, currency: 'USDT', amountUnits: -1n },
      ]),
    ],
    [
      'an unknown bucket',
      draft([
        { account: alice, currency: 'USDT', bucket: 'pending' as 'frozen', amountUnits: 1n },
        { account: clearing, currency: 'USDT', amountUnits: -1n },
      ]),
    ],
    ['a bad reason', { ...deposit(1n), reason: 'Deposit!' }],
    ['an empty idempotency key', { ...deposit(1n), idempotencyKey: '' }],
    ['an oversized idempotency key', { ...deposit(1n), idempotencyKey: 'k'.repeat(201) }],
    ['an empty reference id', { ...deposit(1n), reference: { type: 'test', id: '' } }],
    ['a bad reference type', { ...deposit(1n), reference: { type: 'Test Type', id: '1' } }],
  ];
  it.each(bad)('rejects %s', (_name, entry) => {
    expect(() => normalizeEntry(entry)).toThrow(LedgerInvariantError);
  });

  it('accepts a balanced entry and fingerprints its economic content only', () => {
    const a = normalizeEntry(deposit(5n));
    const b = normalizeEntry({ ...deposit(5n), memo: 'other memo', actorId: 'stf_1' });
    const c = normalizeEntry(deposit(6n));
    expect(a.book).toBe('real');
    expect(a.postings.map((p) => p.bucket)).toEqual(['available', 'available']);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.fingerprint).not.toBe(c.fingerprint);
  });

  it('accepts two postings on one account in two buckets (a freeze)', () => {
    const freeze = normalizeEntry(
      draft([
        { account: alice, currency: 'BTC', bucket: 'available', amountUnits: -3n },
        { account: alice, currency: 'BTC', bucket: 'frozen', amountUnits: 3n },
      ]),
    );
    expect(new Set(freeze.postings.map((p) => p.key)).size).toBe(1);
  });
});

describe('applyEntry', () => {
  function states(available: bigint, frozen = 0n): Map<string, BalanceState> {
    const entry = normalizeEntry(deposit(1n));
    return new Map([
      [
        entry.postings[0]!.key,
        { currency: 'USDT', availableUnits: available, frozenUnits: frozen, allowNegative: false },
      ],
      [
        entry.postings[1]!.key,
        { currency: 'USDT', availableUnits: 0n, frozenUnits: 0n, allowNegative: true },
      ],
    ]);
  }
  const withdraw = (units: bigint) =>
    normalizeEntry(
      draft([
        { account: alice, currency: 'USDT', amountUnits: -units },
        { account: clearing, currency: 'USDT', amountUnits: units },
      ]),
    );

  it('applies when the balance covers it, to the last unit', () => {
    const s = states(100n);
    expect(applyEntry(s, withdraw(100n))).toEqual({ ok: true });
    expect([...s.values()].map((v) => v.availableUnits)).toEqual([0n, 100n]);
  });

  it('refuses one unit more, naming the currency and the available amount, and changes nothing', () => {
    const s = states(150_000_000n);
    const before = structuredClone([...s.entries()]);
    const result = applyEntry(s, withdraw(150_000_001n));
    expect(result).toEqual({
      ok: false,
      refusal: { reason: 'INSUFFICIENT_BALANCE', params: { currency: 'USDT', available: '1.5' } },
    });
    expect([...s.entries()]).toEqual(before);
  });

  it('refuses an unfreeze beyond the frozen amount with INSUFFICIENT_FROZEN', () => {
    const s = states(0n, 7n);
    const unfreeze = normalizeEntry(
      draft([
        { account: alice, currency: 'USDT', bucket: 'frozen', amountUnits: -8n },
        { account: alice, currency: 'USDT', bucket: 'available', amountUnits: 8n },
      ]),
    );
    expect(applyEntry(s, unfreeze)).toMatchObject({ ok: false, refusal: { reason: 'INSUFFICIENT_FROZEN' } });
  });

  it('lets a contra account go negative, never a customer', () => {
    const s = states(0n);
    expect(applyEntry(s, normalizeEntry(deposit(10n)))).toEqual({ ok: true });
    expect([...s.values()].map((v) => v.availableUnits)).toEqual([10n, -10n]);
  });

  it('judges the net change of an entry on each account', () => {
    const s = states(5n);
    const inAndOut = normalizeEntry(
      draft([
        { account: alice, currency: 'USDT', amountUnits: -8n },
        { account: alice, currency: 'USDT', amountUnits: 4n },
        { account: aliceContract, currency: 'USDT', amountUnits: 4n },
      ]),
    );
    s.set(inAndOut.postings[2]!.key, {
      currency: 'USDT',
      availableUnits: 0n,
      frozenUnits: 0n,
      allowNegative: false,
    });
    expect(applyEntry(s, inAndOut)).toEqual({ ok: true });
    expect(s.get(inAndOut.postings[0]!.key)?.availableUnits).toBe(1n);
  });
});
