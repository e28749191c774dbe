import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Refusal } from '../../http/refusal.ts';
import { familyCode, isPlatformCode, LedgerInvariantError, normalizeEntry, platformSpec } from './model.ts';
import { customerId, key, type LedgerFixture, openLedgerFixture, ref, usdt } from './testing.ts';

describe('platform account families (pure rules)', () => {
  it('knows a family member by prefix and a short suffix, and nothing else', () => {
    expect(isPlatformCode('earn_fund_f1a2b3')).toBe(true);
    expect(isPlatformCode('earn_reserve_p9z')).toBe(true);
    expect(isPlatformCode('earn_capital')).toBe(true);
    expect(platformSpec('earn_fund_x')?.allowNegative).toBe(false);
    expect(platformSpec('earn_capital')?.allowNegative).toBe(true);
    for (const bad of [
      'earn_fund_',
      'earn_fund_UPPER',
      'earn_fund_a-b',
      `earn_fund_${'a'.repeat(33)}`,
      'earn_other',
    ])
      expect(isPlatformCode(bad), bad).toBe(false);
    expect(() => familyCode('earn_fund_', 'Bad!')).toThrow(LedgerInvariantError);
    expect(familyCode('earn_reserve_', 'p1')).toBe('earn_reserve_p1');
  });

  it('refuses an unknown family member in an entry as a bug', () => {
    expect(() =>
      normalizeEntry({
        reason: 'earn.fund',
        reference: { type: 'test', id: '1' },
        idempotencyKey: 'k',
        postings: [
          { account: { book: 'real', platform: 'earn_fund_' as never }, currency: 'USDT', amountUnits: 1n },
          { account: { book: 'real', platform: 'earn_capital' }, currency: 'USDT', amountUnits: -1n },
        ],
      }),
    ).toThrow(LedgerInvariantError);
  });
});

describe('platform account families (ledger)', () => {
  let f: LedgerFixture;
  beforeAll(async () => {
    f = await openLedgerFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it('each member is its own account: funded from the contra, never overdrawn, verified', async () => {
    const fund = familyCode('earn_fund_', 'fa');
    const reserve = familyCode('earn_reserve_', 'pa');
    const other = familyCode('earn_reserve_', 'pb');
    await f.ledger.post(f.db, {
      reason: 'earn.fund',
      reference: ref(),
      idempotencyKey: key('fund'),
      postings: [
        { account: { book: 'real', platform: 'earn_capital' }, currency: 'USDT', amountUnits: -usdt(100) },
        { account: { book: 'real', platform: fund }, currency: 'USDT', amountUnits: usdt(100) },
      ],
    });
    await f.ledger.post(f.db, {
      reason: 'earn.reserve',
      reference: ref(),
      idempotencyKey: key('res'),
      postings: [
        { account: { book: 'real', platform: fund }, currency: 'USDT', amountUnits: -usdt(30) },
        { account: { book: 'real', platform: reserve }, currency: 'USDT', amountUnits: usdt(30) },
      ],
    });
    // The other reserve was never funded: taking from it is refused, nothing written.
    const refused = await f.ledger
      .post(f.db, {
        reason: 'earn.accrual',
        reference: ref(),
        idempotencyKey: key('acc'),
        postings: [
          { account: { book: 'real', platform: other }, currency: 'USDT', amountUnits: -1n },
          {
            account: { book: 'real', customerId: customerId(), accountType: 'earn' },
            currency: 'USDT',
            amountUnits: 1n,
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Refusal);
    // Overdrawing a funded member is refused too.
    const over = await f.ledger
      .post(f.db, {
        reason: 'earn.reserve',
        reference: ref(),
        idempotencyKey: key('res'),
        postings: [
          { account: { book: 'real', platform: fund }, currency: 'USDT', amountUnits: -usdt(71) },
          { account: { book: 'real', platform: reserve }, currency: 'USDT', amountUnits: usdt(71) },
        ],
      })
      .catch((e: unknown) => e);
    expect((over as Refusal).reason).toBe('INSUFFICIENT_BALANCE');
    const rows = await f.ledger.platformBalances(f.db, { book: 'real' });
    const of = (code: string) => rows.find((r) => r.platform === code)?.availableUnits;
    expect(of(fund)).toBe(usdt(70));
    expect(of(reserve)).toBe(usdt(30));
    expect(of('earn_capital')).toBe(-usdt(100));
    expect(of(other)).toBeUndefined();
    const report = await f.ledger.verify();
    expect(report.ok).toBe(true);
  });

  it("earn moves of the customer's own money are not turnover; a penalty is", async () => {
    const who = customerId();
    const fund = familyCode('earn_fund_', 'fturn');
    const reserve = familyCode('earn_reserve_', 'pturn');
    const real = (platform: Parameters<typeof familyCode>[1] | string) => ({
      book: 'real' as const,
      platform: platform as never,
    });
    await f.ledger.credit(f.db, {
      book: 'real',
      customerId: who,
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: usdt(1000),
      from: 'deposits_clearing',
      reason: 'deposit',
      reference: ref(),
      idempotencyKey: key('dep'),
    });
    await f.ledger.post(f.db, {
      reason: 'earn.fund',
      reference: ref(),
      idempotencyKey: key('fund'),
      postings: [
        { account: real('earn_capital'), currency: 'USDT', amountUnits: -usdt(10) },
        { account: real(fund), currency: 'USDT', amountUnits: usdt(10) },
      ],
    });
    const spot = { book: 'real' as const, customerId: who, accountType: 'spot' as const };
    const earn = { book: 'real' as const, customerId: who, accountType: 'earn' as const };
    await f.ledger.post(f.db, {
      reason: 'earn.buy',
      reference: { type: 'earn_order', id: 'o1' },
      idempotencyKey: key('buy'),
      postings: [
        { account: spot, currency: 'USDT', amountUnits: -usdt(500) },
        { account: earn, currency: 'USDT', bucket: 'frozen', amountUnits: usdt(500) },
        { account: real(fund), currency: 'USDT', amountUnits: -usdt(1) },
        { account: real(reserve), currency: 'USDT', amountUnits: usdt(1) },
      ],
    });
    await f.ledger.post(f.db, {
      reason: 'earn.penalty',
      reference: { type: 'earn_order', id: 'o1' },
      idempotencyKey: key('pen'),
      postings: [
        { account: earn, currency: 'USDT', bucket: 'frozen', amountUnits: -usdt(25) },
        { account: real('fee_income'), currency: 'USDT', amountUnits: usdt(25) },
      ],
    });
    await f.ledger.post(f.db, {
      reason: 'earn.redeem',
      reference: { type: 'earn_order', id: 'o1' },
      idempotencyKey: key('red'),
      postings: [
        { account: earn, currency: 'USDT', bucket: 'frozen', amountUnits: -usdt(475) },
        { account: spot, currency: 'USDT', amountUnits: usdt(475) },
        { account: real(reserve), currency: 'USDT', amountUnits: -usdt(1) },
        { account: real(fund), currency: 'USDT', amountUnits: usdt(1) },
      ],
    });
    const turnover = await f.ledger.customerTurnover(f.db, { customerId: who, currency: 'USDT' });
    expect(turnover).toEqual({ depositedUnits: usdt(1000), consumedUnits: usdt(25), promotionalUnits: 0n });
  });
});
