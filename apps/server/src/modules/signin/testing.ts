import { type Answer, call, type TestApp } from '../../../test/harness.ts';
import type { StaffContext } from '../../http/staff.ts';
import { ledgerOf } from '../assets/testing.ts';
import { BUDGET } from './context.ts';

/** Test support for the sign-in reward (imported by *.test.ts only). */

export const staffA: StaffContext = { staffId: 'stf_sign_a', sessionId: 'sss_a', roles: ['administrator'] };
export const staffB: StaffContext = { staffId: 'stf_sign_b', sessionId: 'sss_b', roles: ['administrator'] };

export const signinOf = (t: TestApp) => t.app.signin;

/** Pays `amount` USDT into the budget through the four-eyes path (A asks, B approves). */
export async function fundBudget(t: TestApp, amount: string): Promise<void> {
  const r = await signinOf(t).requestFunding(staffA, { amount, reason: 'test top-up' });
  await signinOf(t).decideFunding(staffB, r.request_id, 'approve', 'approved in test');
}

/** The budget's available balance in minor units (real book unless said). */
export async function budgetUnits(t: TestApp, book: 'real' | 'demo' = 'real'): Promise<bigint> {
  const rows = await ledgerOf(t).platformBalances(t.db, { book, platform: BUDGET });
  return rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
}

/** The customer's spot USDT available, minor units. */
export async function spotUnits(
  t: TestApp,
  customerId: string,
  book: 'real' | 'demo' = 'real',
): Promise<bigint> {
  const b = await ledgerOf(t).balance(t.db, { book, customerId, accountType: 'spot', currency: 'USDT' });
  return b.availableUnits;
}

export const info = (t: TestApp, token: string | null): Promise<Answer> =>
  call(t.app, { method: 'GET', call: 'signin', fields: {}, headers: token ? { token } : {} });

export const signIn = (t: TestApp, token: string, rtoken?: string): Promise<Answer> =>
  call(t.app, { call: 'signin', fields: rtoken ? { rtoken } : {}, headers: { token } });

/** Sets the programme (audited as staff A); the amounts default to 1…7 USDT. */
export async function setProgramme(
  t: TestApp,
  over: Partial<{
    enabled: boolean;
    time_zone: string;
    amounts: string[];
    verification: 'none' | 'primary';
  }> = {},
) {
  return signinOf(t).updateSettings(staffA, {
    enabled: true,
    time_zone: 'UTC',
    amounts: ['1', '2', '3', '4', '5', '6', '7'],
    verification: 'none',
    condition: { en: 'Promotional credit', zh: '推广赠金', ft: '推廣贈金' },
    reason: 'test settings',
    ...over,
  });
}
