/**
 * What other modules may use from assets: the service, the amount checks, and the generic record
 * machinery (`journalRecords`, `RecordSource`, `recordsToCsv`) that withdrawals reuse.
 */
export { knownCurrency, parseAmount } from './amounts.ts';
export { assetsMigrations } from './migrations.ts';
export {
  createRecordRegistry,
  JOURNAL_KIND_PREFIXES,
  type JournalQuery,
  type JournalRow,
  journalRecords,
  journalSource,
  type ParsedRecordsQuery,
  parseRecordsQuery,
  type RecordFilters,
  type RecordListInput,
  type RecordRegistry,
  type RecordSource,
  recordsToCsv,
} from './records.ts';
export { assetsRoutes } from './routes.ts';
export { type Assets, bookOf, createAssets, isAccountType } from './service.ts';
export type { AssetsTables } from './tables.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The assets service: other modules register record sources on `assets.records`. */
    assets: import('./service.ts').Assets;
  }
}
