import type { CreditTier } from '@bourse/risk';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import { type CreditInputs, DAY_MS } from './context.ts';

/** Trading volume counts the last year of spot trades. */
const VOLUME_DAYS = 365;

/**
 * The credit score's inputs from other modules, composed for wiring.ts (this module reads no other
 * module's tables): the highest approved verification tier and the account's creation time come in
 * as ports; the ledger gives every deposit ever credited to the customer's spot account in USDT
 * (`deposit.*` entries) and the USDT side of their spot trades over the last year (`spot.trade`) —
 * the same read earn's VIP levels use. Deposits and trades in other currencies do not count (they
 * would need a valuation at the time of each; a later step).
 */
export function ledgerCreditInputs(deps: {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  tierOf: (customerId: string) => Promise<CreditTier>;
  createdAt: (customerId: string) => Promise<Date | null>;
}) {
  return async (customerId: string): Promise<CreditInputs> => {
    const now = deps.clock.now();
    // `to` is exclusive: an entry posted at this very instant counts.
    const to = new Date(now.getTime() + 1);
    const scope = { customerId, book: 'real' as const, currency: 'USDT', accountType: 'spot' };
    const [tier, createdAt, deposits, volume] = await Promise.all([
      deps.tierOf(customerId),
      deps.createdAt(customerId),
      deps.ledger.customerJournalVolume(deps.db, { ...scope, reasonPrefixes: ['deposit.'], to }),
      deps.ledger.customerJournalVolume(deps.db, {
        ...scope,
        reasonPrefixes: ['spot.trade'],
        from: new Date(now.getTime() - VOLUME_DAYS * DAY_MS),
        to,
      }),
    ]);
    const ageMs = createdAt === null ? 0 : now.getTime() - createdAt.getTime();
    return {
      verificationTier: tier,
      accountAgeDays: Math.max(0, Math.floor(ageMs / DAY_MS)),
      depositTotalUnits: deposits,
      tradingVolumeUnits: volume,
    };
  };
}
