import { scaleOf } from '@bourse/money';
import type { AdminEarnProductBody } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { StaffContext } from '../../http/staff.ts';
import { type EarnDeps, fundAccount } from './context.ts';
import { createFunding, updateSettings } from './funding.ts';
import { changeState, createProduct } from './products.ts';
import * as repo from './repo.ts';

/**
 * Demo content (DEMO_CONTENT on): one funding account with a plain-language source, paid in by a
 * seed entry (actor `demo-seed`, audited), published VIP thresholds when none exist, and three open
 * products: 7-day USDT custody at 4 % a year (forfeit rewards), 30-day USDT custody with the spec's
 * 5 % principal penalty only where the active profile allows it (else forfeit rewards), and a
 * 90-day VIP product. Runs once: a funding account created by the seed actor means it ran.
 */

export const DEMO_SEED_ACTOR = 'demo-seed';
export const DEMO_FUNDING_USDT = 100_000n;

const seedStaff: StaffContext = {
  staffId: DEMO_SEED_ACTOR,
  sessionId: DEMO_SEED_ACTOR,
  roles: ['administrator'],
};
const REASON = 'demo content seed';

export async function seedDemo(deps: EarnDeps): Promise<number> {
  const existing = (await repo.fundings(deps.db)).find((f) => f.created_by === DEMO_SEED_ACTOR);
  if (existing) return 0;
  const fund = await createFunding(
    deps,
    seedStaff,
    {
      name: 'Marketing budget',
      source: {
        en: "The operator's marketing budget, paid in by the operator. Rewards are paid from this money, set aside in full when you buy; they do not come from trading or from other customers.",
        zh: '运营方的市场推广预算，由运营方注入。收益由这笔资金支付，并在您购买时全额预留；收益并非来自交易或其他客户。',
        ft: '營運方的市場推廣預算，由營運方注入。收益由這筆資金支付，並在您購買時全額預留；收益並非來自交易或其他客戶。',
      },
      currency: 'USDT',
      reason: REASON,
    },
    'earn.funding.seed',
  );
  const units = DEMO_FUNDING_USDT * 10n ** BigInt(scaleOf('USDT'));
  await inTransaction(deps.db, async (tx) => {
    const entry = await deps.ledger.post(tx, {
      reason: 'earn.fund',
      reference: { type: 'earn_funding', id: fund.id },
      idempotencyKey: `earn:demo-seed:${fund.id}`,
      actorId: DEMO_SEED_ACTOR,
      memo: REASON,
      postings: [
        { account: { book: 'real', platform: 'earn_capital' }, currency: 'USDT', amountUnits: -units },
        { account: fundAccount('real', fund.code), currency: 'USDT', amountUnits: units },
      ],
    });
    await deps.audit.record(tx, {
      actorId: DEMO_SEED_ACTOR,
      action: 'earn.funding.seed',
      targetType: 'earn_funding',
      targetId: fund.id,
      after: { amount: DEMO_FUNDING_USDT.toString(), currency: 'USDT', entry_id: entry.id },
      reason: REASON,
    });
  });
  const s = await repo.setting(deps.db);
  if (s.vip_levels.length === 0)
    await updateSettings(deps, seedStaff, {
      cutoff_hour: s.cutoff_hour,
      time_zone: s.time_zone,
      vip_levels: [
        { level: 1, min_tier: 'primary', min_volume_30d: '10000', min_balance: '5000' },
        { level: 2, min_tier: 'advanced', min_volume_30d: '100000', min_balance: '50000' },
      ],
      reason: REASON,
    });
  const penaltyAllowed = (await deps.jurisdiction.active()).earn_principal_penalty;
  const base = {
    funding_id: fund.id,
    sale_starts_at: null,
    sale_ends_at: null,
    min_tier: null,
    min_rating: 'not_assessed' as const,
    redeem_delay_days: 0,
    reason: REASON,
  };
  const products: AdminEarnProductBody[] = [
    {
      ...base,
      kind: 'custody',
      names: { en: 'USDT 7-day custody', zh: 'USDT 7 天托管', ft: 'USDT 7 天託管' },
      descriptions: {
        en: 'Seven days at 4 % a year. Your USDT stays yours, locked in your earn account; redeem early and you get all of it back, giving up the rewards accrued so far.',
        zh: '7 天，年化 4%。您的 USDT 仍归您所有，锁定在您的理财账户中；提前赎回可取回全部本金，但放弃已累计的收益。',
        ft: '7 天，年化 4%。您的 USDT 仍歸您所有，鎖定在您的理財帳戶中；提前贖回可取回全部本金，但放棄已累計的收益。',
      },
      term_days: 7,
      annual_rate: '4',
      min_amount: '100',
      max_amount: '10000',
      capacity: '500000',
      redeem_rule: 'forfeit_rewards',
      vip_level: null,
      jurisdictions: ['permissive', 'eu_retail', 'custom'],
    },
    {
      ...base,
      kind: 'custody',
      names: { en: 'USDT 30-day custody', zh: 'USDT 30 天托管', ft: 'USDT 30 天託管' },
      descriptions: penaltyAllowed
        ? {
            en: 'Thirty days at 5 % a year. Redeeming early costs 5 % of the principal and the rewards accrued so far; the penalty is shown in USDT before you buy and again before you redeem.',
            zh: '30 天，年化 5%。提前赎回将扣除本金的 5% 并放弃已累计收益；违约金在购买前和赎回前均以 USDT 显示。',
            ft: '30 天，年化 5%。提前贖回將扣除本金的 5% 並放棄已累計收益；違約金在購買前和贖回前均以 USDT 顯示。',
          }
        : {
            en: 'Thirty days at 5 % a year. Redeem early and you get all of your principal back, giving up the rewards accrued so far.',
            zh: '30 天，年化 5%。提前赎回可取回全部本金，但放弃已累计的收益。',
            ft: '30 天，年化 5%。提前贖回可取回全部本金，但放棄已累計的收益。',
          },
      term_days: 30,
      annual_rate: '5',
      min_amount: '100',
      max_amount: '20000',
      capacity: '500000',
      redeem_rule: penaltyAllowed ? 'principal_percent' : 'forfeit_rewards',
      ...(penaltyAllowed ? { penalty_rate: '5' } : {}),
      vip_level: null,
      jurisdictions: penaltyAllowed ? ['permissive', 'custom'] : ['permissive', 'eu_retail', 'custom'],
    },
    {
      ...base,
      kind: 'vip',
      names: { en: 'VIP USDT 90-day', zh: 'VIP USDT 90 天', ft: 'VIP USDT 90 天' },
      descriptions: {
        en: 'Ninety days at 6 % a year for VIP level 1 and above (published thresholds). Redeem early and you get all of your principal back, giving up the rewards accrued so far.',
        zh: '90 天，年化 6%，适用于 VIP 1 级及以上（按公布的门槛）。提前赎回可取回全部本金，但放弃已累计的收益。',
        ft: '90 天，年化 6%，適用於 VIP 1 級及以上（按公佈的門檻）。提前贖回可取回全部本金，但放棄已累計的收益。',
      },
      term_days: 90,
      annual_rate: '6',
      min_amount: '1000',
      max_amount: '100000',
      capacity: '1000000',
      redeem_rule: 'forfeit_rewards',
      vip_level: 1,
      jurisdictions: ['permissive', 'eu_retail', 'custom'],
    },
  ];
  for (const body of products) {
    const row = await createProduct(deps, seedStaff, body, { action: 'earn.product.seed' });
    await changeState(deps, seedStaff, row.id, { action: 'open', reason: REASON });
  }
  return products.length;
}
