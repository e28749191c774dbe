/** What other modules may import from withdrawals. */
export { withdrawalsAdminRoutes, withdrawalsWebhookRoutes } from './admin-routes.ts';
export { type Book, createBook } from './book.ts';
export { CHAINS, CURRENCY_CHAINS, normalizeAddress } from './chains.ts';
export { withdrawalsMigrations } from './migrations.ts';
export { schedulePayouts } from './payouts.ts';
export { DEFAULT_RULES, RULE_CODES } from './policy.ts';
export {
  createEmbeddedPayoutProvider,
  embeddedPayoutProvider,
  type PayoutProvider,
  simulatedTxHash,
} from './provider.ts';
export { withdrawalFlows } from './repo.ts';
export { withdrawalsRoutes } from './routes.ts';
export { createSecurity, hasGoogleAuth, hasTradePassword, type Security } from './security.ts';
export { createWithdrawals, statusCode, type Withdrawals } from './service.ts';
export { sharedPayoutDetails } from './shared-payout.ts';
export type { WithdrawalsTables } from './tables.ts';

import type { PayoutSchedule } from './payouts.ts';
import type { Withdrawals } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The withdrawals service and its payout job (tests drive the job through it). */
    withdrawalsService: Withdrawals;
    payoutJob: PayoutSchedule;
  }
}
