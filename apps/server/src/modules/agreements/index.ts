/**
 * What others may use from agreements: the service (`acceptAtRegistration` for accounts' register
 * step, wired in wiring.ts), the customer and staff routes, the migrations and the table types.
 */
export { agreementsAdminRoutes } from './admin-routes.ts';
export { agreementsMigrations } from './migrations.ts';
export { acceptanceMeta, agreementsRoutes } from './routes.ts';
export { type AcceptanceMeta, type Agreements, createAgreements } from './service.ts';
export type { AgreementsTables } from './tables.ts';
