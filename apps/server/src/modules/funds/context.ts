import type { CreateOrderBody, RequiredTier, RiskRating, VerificationFeature } from '@bourse/protocol';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Ledger } from '../ledger/index.ts';
import type { PlanMarket } from './plan.ts';

/** A spot order as the spot service answers it once its batch is settled (modules/spot `OrderState`). */
export type SpotFill = {
  id: string;
  status: string;
  filledLots: bigint;
  filledAmount: bigint;
  fee: bigint;
};

/** What funds needs of modules/spot: its markets and the one order path (`placeFor`). */
export type FundsSpot = {
  market(symbol: string): PlanMarket & { status: string; quote: string; priceBandBps: number };
  markets(): Array<{ symbol: string; base: string; quote: string; status: string }>;
  placeFor(customerId: string, book: 'real' | 'demo', body: CreateOrderBody): Promise<SpotFill>;
};

/** What funds needs of modules/market: reference prices now and instrument ids for the tick record. */
export type FundsMarket = {
  ticker(symbol: string): { mark: string; state: string };
  instrument(symbol: string): { id: string };
  priceForTrading(symbol: string): { mark: string };
};

/** The customer's risk rating (modules/suitability, injected by wiring.ts). */
export type FundsRatings = {
  checkCap(customerId: string, req: { productClass: 'earn'; amountUnits: bigint }): Promise<void>;
  ratingOf(customerId: string): Promise<RiskRating>;
};

/** The verification feature an ETF order is asked as (the profile's rule; `profile_tier` shows it). */
export const FUNDS_FEATURE = 'earn' as const;

export type FundsDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: Ledger;
  market: FundsMarket;
  spot: FundsSpot;
  audit: AuditLog;
  ratings: FundsRatings;
  /** Verification (modules/verification): refuses unless the tier the profile requires for `feature` is approved. */
  requireFeature(customerId: string, feature: VerificationFeature): Promise<void>;
  /**
   * The tier the active profile requires for `feature` (modules/verification `featureTier`): models
   * carry the `earn` rule as `profile_tier`, so the rules show it before `requireFeature` refuses.
   */
  featureTier(feature: VerificationFeature): Promise<RequiredTier>;
  /** Back-office labels (email, phone or uid) of customers; accounts owns them. */
  customerLabels?: (customerIds: string[]) => Promise<Map<string, string>>;
};
