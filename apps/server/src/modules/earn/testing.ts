import type { AdminEarnProductBody } from '@bourse/protocol';
import type { TestApp } from '../../../test/harness.ts';
import type { StaffContext } from '../../http/staff.ts';
import { ledgerOf } from '../assets/testing.ts';
import { familyCode } from '../ledger/index.ts';

/** Test support for earn (imported by *.test.ts only). */

export const staffA: StaffContext = { staffId: 'stf_test_a', sessionId: 'sss_a', roles: ['administrator'] };
export const staffB: StaffContext = { staffId: 'stf_test_b', sessionId: 'sss_b', roles: ['administrator'] };

export function earnOf(t: TestApp) {
  return t.app.earn.service;
}

/** A funding account paid `amount` USDT through the four-eyes path (A asks, B approves). */
export async function fundedAccount(t: TestApp, amount: string, name = 'Test budget') {
  const earn = earnOf(t);
  const f = await earn.createFunding(staffA, {
    name,
    source: { en: 'Operator capital', zh: '运营方资金', ft: '營運方資金' },
    currency: 'USDT',
    reason: 'test funding',
  });
  if (!f) throw new Error('no funding account');
  if (amount !== '0') {
    const r = await earn.requestFunding(staffA, f.funding_id, { amount, reason: 'test top-up' });
    await earn.decideFunding(staffB, r.request_id, 'approve', 'approved in test');
  }
  return f;
}

export function productBody(
  fundingId: string,
  over: Partial<AdminEarnProductBody> = {},
): AdminEarnProductBody {
  return {
    kind: 'custody',
    names: { en: 'Test 7d', zh: '测试 7 天', ft: '測試 7 天' },
    descriptions: { en: 'A test product', zh: '测试产品', ft: '測試產品' },
    funding_id: fundingId,
    term_days: 7,
    annual_rate: '3.65',
    min_amount: '100',
    max_amount: '10000',
    capacity: '100000',
    sale_starts_at: null,
    sale_ends_at: null,
    redeem_rule: 'forfeit_rewards',
    redeem_delay_days: 0,
    min_tier: null,
    min_rating: 'not_assessed',
    vip_level: null,
    jurisdictions: ['permissive', 'eu_retail', 'custom'],
    reason: 'test product',
    ...over,
  };
}

/** A product, opened. */
export async function openProduct(t: TestApp, fundingId: string, over: Partial<AdminEarnProductBody> = {}) {
  const earn = earnOf(t);
  const p = await earn.createProduct(staffA, productBody(fundingId, over));
  if (!p) throw new Error('no product');
  await earn.productState(staffA, p.product_id, { action: 'open', reason: 'test open' });
  return p;
}

/** A platform account's available balance in USDT minor units (real book unless said). */
export async function platformUnits(
  t: TestApp,
  code: string,
  book: 'real' | 'demo' = 'real',
): Promise<bigint> {
  const rows = await ledgerOf(t).platformBalances(t.db, { book, platform: code as never });
  return rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
}

export const fundCode = (fundingId: string) => familyCode('earn_fund_', fundingId.slice(4).toLowerCase());
export const reserveCode = (productId: string) =>
  familyCode('earn_reserve_', productId.slice(4).toLowerCase());
