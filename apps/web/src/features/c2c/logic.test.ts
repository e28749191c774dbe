import { describe, expect, it } from 'vitest';
import {
  accountBody,
  accountProblems,
  amountProblem,
  countdownText,
  deadlineOf,
  lastSeq,
  mergeMessages,
  orderMax,
  payToLines,
  quoteFiat,
  spreadPercent,
} from './logic.ts';
import { message, NOW, offer, order, PAID_AS_RECEIVER } from './test/fixtures.ts';

const BLANK = { bank_name: '', account: '', swift: '', bank_address: '', wallet_id: '' };

describe('the live quote', () => {
  it("is the server's quote: buying rounds the fiat down, selling up, to the cent", () => {
    expect(quoteFiat(offer({ price: '1.01' }), '100')).toBe('101.00');
    expect(quoteFiat(offer({ price: '7.123456' }), '1.5')).toBe('10.68');
    expect(quoteFiat(offer({ side: 'sell', price: '7.123456' }), '1.5')).toBe('10.69');
  });
  it('has no figure for an amount that is not one, or an offer without a price', () => {
    expect(quoteFiat(offer(), 'abc')).toBeNull();
    expect(quoteFiat(offer(), '0')).toBeNull();
    expect(quoteFiat(offer(), '-1')).toBeNull();
    expect(quoteFiat(offer(), '1.123456789')).toBeNull();
    expect(quoteFiat(offer({ price: null }), '10')).toBeNull();
  });
});

describe('the amount checks of an offer (in the server order)', () => {
  const o = offer({ min_amount: '10', max_amount: '5000', remaining: '12000' });
  it('accepts an amount inside every limit', () => {
    expect(amountProblem('10', o, 'bank')).toBeNull();
    expect(amountProblem('3000', o, 'bank')).toBeNull();
  });
  it('refuses below the minimum, above the max, above what is left, above the method cap', () => {
    expect(amountProblem('x', o, 'bank')).toEqual({ kind: 'invalid' });
    expect(amountProblem('9.99', o, 'bank')).toEqual({ kind: 'belowMin', min: '10' });
    expect(amountProblem('5000.01', o, 'alipay')).toEqual({ kind: 'aboveMax', max: '5000' });
    expect(amountProblem('3000.5', o, 'bank')).toEqual({ kind: 'aboveMethod', max: '3000' });
    expect(amountProblem('3000.5', o, 'alipay')).toBeNull();
    const low = offer({ remaining: '40', max_amount: '5000' });
    expect(amountProblem('41', low, 'alipay')).toEqual({ kind: 'aboveRemaining', left: '40' });
  });
  it('lets the last amount below the minimum be taken whole', () => {
    const last = offer({ min_amount: '10', remaining: '4' });
    expect(amountProblem('4', last, 'bank')).toBeNull();
    expect(amountProblem('3', last, 'bank')).toEqual({ kind: 'belowMin', min: '10' });
  });
  it('offers the smaller of the max and what is left', () => {
    expect(orderMax(offer({ max_amount: '5000', remaining: '40' }))).toBe('40');
    expect(orderMax(offer({ max_amount: '5000', remaining: '12000' }))).toBe('5000');
  });
});

describe('deadlines', () => {
  it('counts to pay_by while matched, confirm_by while paid, nothing when finished', () => {
    expect(deadlineOf(order())).toEqual({ kind: 'pay_by', at: order().pay_by });
    expect(deadlineOf(PAID_AS_RECEIVER)).toEqual({ kind: 'confirm_by', at: PAID_AS_RECEIVER.confirm_by });
    expect(deadlineOf(order({ state: 'expired' }))).toBeNull();
  });
  it('shows hours, minutes and seconds, and zero once passed', () => {
    expect(countdownText(NOW + 3 * 3_600_000 - 2_000, NOW)).toBe('02:59:58');
    expect(countdownText(NOW + 25 * 3_600_000, NOW)).toBe('25:00:00');
    expect(countdownText(NOW - 1, NOW)).toBe('00:00:00');
  });
});

describe('presentation helpers', () => {
  it('signs a spread in percent without a float', () => {
    expect(spreadPercent(150)).toBe('+1.5');
    expect(spreadPercent(-25)).toBe('-0.25');
    expect(spreadPercent(0)).toBe('0');
    expect(spreadPercent(2000)).toBe('+20');
  });
  it('lists only the filled payment details, bank fields for a bank, the id for a wallet', () => {
    const lines = payToLines(order().pay_to as NonNullable<ReturnType<typeof order>['pay_to']>);
    expect(lines.map((l) => l.field)).toEqual(['name', 'bank_name', 'account_no', 'swift', 'bank_address']);
    expect(
      payToLines({
        method: 'alipay',
        name: 'A',
        bank_name: 'ignored',
        account_no: null,
        iban: null,
        swift: null,
        bank_address: null,
        wallet_id: 'ali@x',
      }).map((l) => l.field),
    ).toEqual(['name', 'wallet_id']);
  });
  it('merges live messages once each, in order', () => {
    const merged = mergeMessages([message(1), message(3)], [message(2), message(3, { body: 'again' })]);
    expect(merged.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(merged[2]?.body).toBe('again');
    expect(lastSeq(merged)).toBe(3);
    expect(lastSeq([])).toBe(0);
  });
});

describe('collection accounts', () => {
  it('checks an IBAN and a BIC as the server does (ibantools)', () => {
    const bank = { ...BLANK, method: 'bank' as const, bank_name: 'DB' };
    expect(accountProblems({ ...bank, account: 'DE89 3704 0044 0532 0130 00', swift: 'DEUTDEFF' })).toEqual(
      [],
    );
    expect(accountProblems({ ...bank, account: 'DE89 3704 0044 0532 0130 01' })).toEqual(['iban']);
    expect(accountProblems({ ...bank, account: '123456789', swift: 'NOTABIC' })).toEqual(['swift']);
    expect(accountProblems({ ...BLANK, method: 'bank' })).toEqual(['bank_name', 'account']);
    expect(accountProblems({ ...BLANK, method: 'wechat' })).toEqual(['wallet_id']);
  });
  it('sends an IBAN in its electronic form, an account number without spaces, the verified name', () => {
    const bank = { ...BLANK, method: 'bank' as const, bank_name: ' DB ', swift: 'deutdeff' };
    expect(accountBody({ ...bank, account: 'DE89 3704 0044 0532 0130 00' }, 'Li Wei')).toEqual({
      method: 'bank',
      name: 'Li Wei',
      bank_name: 'DB',
      iban: 'DE89370400440532013000',
      swift: 'DEUTDEFF',
    });
    expect(accountBody({ ...bank, account: '1234 5678-90', swift: '' }, 'Li Wei')).toMatchObject({
      account_no: '1234567890',
    });
    expect(accountBody({ ...BLANK, method: 'alipay', wallet_id: ' ali@x ' }, 'Li Wei')).toEqual({
      method: 'alipay',
      name: 'Li Wei',
      wallet_id: 'ali@x',
    });
  });
});
