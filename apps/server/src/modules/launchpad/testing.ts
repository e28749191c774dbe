import type { AdminLaunchpadProjectBody } from '@bourse/protocol';
import { testLogger } from '../../../test/logwatch.ts';
import type { StaffContext } from '../../http/staff.ts';
import { newId } from '../../lib/ids.ts';
import type { LedgerFixture } from '../ledger/testing.ts';
import type { LaunchpadDeps } from './context.ts';
import { createLaunchpad } from './service.ts';

/** Test support for the launchpad (imported by *.test.ts only). */

export const staffA: StaffContext = { staffId: 'stf_test_a', sessionId: 'sss_a', roles: ['administrator'] };
export const DAY = 86_400_000;
export const HOUR = 3_600_000;

let coins = 0;
/** A coin code no other test file uses (the money registry is per process). */
export function freshCoin(): string {
  coins += 1;
  return `T${process.pid.toString(36).toUpperCase().slice(-4)}${coins.toString(36).toUpperCase()}`.slice(
    0,
    10,
  );
}

/** A project opening in an hour for a day, listing a day later, 30 days' lock-up: 1 USDT per coin, lots of 1. */
export function projectBody(
  nowMs: number,
  over: Partial<AdminLaunchpadProjectBody> = {},
): AdminLaunchpadProjectBody {
  return {
    coin: freshCoin(),
    coin_scale: 8,
    names: { en: 'Test coin', zh: '测试币', ft: '測試幣' },
    issuer: 'Test Issuer Ltd.',
    descriptions: { en: 'A test project', zh: '测试项目', ft: '測試項目' },
    risk_warnings: { en: 'You may lose everything', zh: '可能损失全部', ft: '可能損失全部' },
    whitepaper_url: 'https://example.com/wp.pdf',
    mode: 'pro_rata',
    price: '1',
    lot_size: '1',
    circulation: '1000000',
    supply: '1000',
    soft_cap: '100',
    per_customer_cap: '400',
    min_subscription: '1',
    margin_ratio: '100',
    fee_rate: '0.5',
    opens_at: nowMs + HOUR,
    closes_at: nowMs + HOUR + DAY,
    listing_at: nowMs + HOUR + 2 * DAY,
    lockup_days: 30,
    refund_hours: 24,
    min_tier: null,
    min_rating: 'not_assessed',
    jurisdictions: ['permissive', 'eu_retail', 'custom'],
    reason: 'test project',
    ...over,
  };
}

const audited: unknown[] = [];
/** A launchpad service on a ledger fixture, every other module's answer stubbed as "allowed". */
export function launchpadOn(f: LedgerFixture, over: Partial<LaunchpadDeps> = {}) {
  const deps: LaunchpadDeps = {
    db: f.db,
    clock: f.clock,
    log: testLogger(),
    ledger: f.ledger,
    audit: {
      async record(_q, input) {
        audited.push(input);
        return { id: newId('aud'), hash: '0'.repeat(64) };
      },
    },
    activeProfile: async () => 'permissive',
    requireFeature: async () => {},
    featureTier: async () => 'none',
    tierApproved: async () => true,
    rating: async () => 'aggressive',
    checkCap: async () => {},
    ...over,
  };
  return { deps, launchpad: createLaunchpad(deps) };
}

/** An auth context for a customer id (the service's calls take one). */
export const authOf = (customerId: string) => ({
  customerId,
  sessionId: 'ses_test',
  isDemo: false,
  token: 't',
});
