/** What other modules may import from withdrawals. */
export { withdrawalsAdminRoutes, withdrawalsWebhookRoutes } from './admin-routes.ts';
export { type Book, createBook } from './book.ts';
export { CHAINS, CURRENCY_CHAINS, normalizeAddress } from './chains.ts';
export { withdrawalsMigrations } from './migrations.ts';
export { DEFAULT_RULES, RULE_CODES } from './policy.ts';
export { embeddedPayoutProvider, type PayoutProvider } from './provider.ts';
export { withdrawalsRoutes } from './routes.ts';
export { createSecurity, hasTradePassword, type Security } from './security.ts';
export { createWithdrawals, statusCode, type Withdrawals } from './service.ts';
export type { WithdrawalsTables } from './tables.ts';
