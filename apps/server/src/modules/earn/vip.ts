import { parseDecimal, scaleOf } from '@bourse/money';
import type { VipLevelData } from '@bourse/protocol';
import type { EarnDeps } from './context.ts';

/**
 * VIP levels: computed by the server from the published thresholds (earn_setting.vip_levels), never
 * assigned by staff. A level is met when its verification tier (if any) is approved AND the
 * customer's 30-day traded notional OR total balance (USDT) reaches its figure; the customer's level
 * is the highest met (0: none).
 */

const USDT_SCALE = scaleOf('USDT');

function usdtUnits(text: string): bigint {
  const parsed = parseDecimal(text, { scale: USDT_SCALE });
  if (!parsed.ok) throw new Error(`stored VIP threshold ${text} is malformed`);
  return parsed.units;
}

export async function vipLevelOf(
  deps: Pick<EarnDeps, 'tierApproved' | 'vipInputs'>,
  customerId: string,
  levels: readonly VipLevelData[],
): Promise<number> {
  if (levels.length === 0) return 0;
  const inputs = await deps.vipInputs(customerId);
  const tiers = new Map<string, boolean>();
  let best = 0;
  for (const l of [...levels].sort((a, b) => a.level - b.level)) {
    if (l.min_tier !== null) {
      if (!tiers.has(l.min_tier)) tiers.set(l.min_tier, await deps.tierApproved(customerId, l.min_tier));
      if (!tiers.get(l.min_tier)) continue;
    }
    if (inputs.volume30d >= usdtUnits(l.min_volume_30d) || inputs.balance >= usdtUnits(l.min_balance))
      best = Math.max(best, l.level);
  }
  return best;
}

const VOLUME_DAYS = 30;

/**
 * The VIP inputs from the ledger (real book): the total balance valued in USDT at the recorded
 * reference prices (currencies without a price count 0), and the 30-day traded notional as the USDT
 * side of the customer's spot trades (`spot.trade` postings in USDT; pairs quoted in USDT).
 */
export function ledgerVipInputs(deps: Pick<EarnDeps, 'db' | 'clock' | 'ledger' | 'usdtValue'>) {
  return async (customerId: string): Promise<{ volume30d: bigint; balance: bigint }> => {
    const balances = await deps.ledger.balances(deps.db, { customerId });
    let balance = 0n;
    for (const b of balances) {
      if (b.book !== 'real') continue;
      balance += deps.usdtValue(b.currency, b.availableUnits + b.frozenUnits) ?? 0n;
    }
    const now = deps.clock.now();
    const from = new Date(now.getTime() - VOLUME_DAYS * 86_400_000);
    const volume30d = await deps.ledger.customerJournalVolume(deps.db, {
      customerId,
      book: 'real',
      reasonPrefixes: ['spot.trade'],
      currency: 'USDT',
      accountType: 'spot',
      from,
      to: now,
    });
    return { volume30d, balance };
  };
}
