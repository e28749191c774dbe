/** What other modules may use from deposits. */
export {
  CHAINS,
  type Chain,
  DEMO_CUSTODY_XPUB,
  deriveDepositAddress,
  isChain,
  normalizeAddress,
  parseXpub,
} from './derive.ts';
export { depositsMigrations } from './migrations.ts';
export { type CustodyProvider, createEmbeddedProvider, loadCustodySecret } from './provider.ts';
export { depositFlows } from './repo.ts';
export { custodyRoutes, depositsAdminRoutes, depositsRoutes } from './routes.ts';
export { createDeposits, DEPOSIT_ACCOUNT_TYPE, type Deposits } from './service.ts';
export type { DepositsTables } from './tables.ts';
