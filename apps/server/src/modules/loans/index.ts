/** Loans and the credit score: consumer credit shown whole before anyone applies (README.md). */

export { loansAdminRoutes } from './admin-routes.ts';
export { type CreditInputs, LOANS_JOB_INTERVAL_MS, type LoansDeps } from './context.ts';
export { ledgerCreditInputs } from './inputs.ts';
export { loansMigrations } from './migrations.ts';
export { loansRoutes } from './routes.ts';
export { createLoans, type Loans } from './service.ts';
export type { LoansTables } from './tables.ts';

import type { JobSchedule } from '../../db/schedule.ts';
import type { Loans } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The loans service and its job (tests run the job through it). */
    loans: { service: Loans; job: JobSchedule };
  }
}
