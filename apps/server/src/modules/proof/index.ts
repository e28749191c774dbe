import type { Proof, ProofSchedule } from './service.ts';

/** What other modules may import from the proof-of-liabilities module. */
export { proofMigrations } from './migrations.ts';
export { proofRoutes } from './routes.ts';
export {
  createProof,
  PROOF_ALARM_MESSAGE,
  type Proof,
  type ProofDeps,
  type ProofSchedule,
  type PublishResult,
  scheduleProofs,
} from './service.ts';
export type { ProofTables } from './tables.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The proof-of-liabilities service and its schedule (tests wait for the start-up run). */
    proof: { service: Proof; schedule: ProofSchedule };
  }
}
