/**
 * What other modules and the app may use from accounts: the service (customers, sessions, codes,
 * contacts), wallet login, the back office's customer view and the password hashing parameters.
 * Nobody else reads the accounts_* tables: they ask this module (scripts/check-tables.ts).
 */

export { knownCountry } from './identity.ts';
export {
  antiPhishingPhrases,
  normalizeAnswer,
  normalizePhrase,
  type Profile,
} from './profile.ts';
export { profileAdminRoutes, profileRoutes } from './profile-routes.ts';
export {
  invitationCodeOf,
  inviteeCounts,
  inviteesPage,
  inviterChain,
  maskContact,
  maskName,
  sharedDevice,
} from './referrals.ts';
export { customerBasics, customerIdByUid, customerIdentities } from './repo.ts';
export { accountsRoutes } from './routes.ts';
export { customerActiveLookup, recordSecurityEvent } from './security-events.ts';
export {
  type Accounts,
  type AccountsConfig,
  type AccountsDeps,
  ARGON2,
  type Contact,
  createAccounts,
  DEMO_CUSTOMER,
  type RequestMeta,
  type SessionEndReason,
  sessionEndReason,
} from './service.ts';
export { type CustomerAdmin, createCustomerAdmin } from './staff-view.ts';
export type { AccountsTables } from './tables.ts';
export { createWalletLogin, type WalletLogin } from './wallet.ts';
