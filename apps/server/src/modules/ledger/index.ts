/** What other modules may import from the ledger. Only the ledger writes balances. */
export type { Outcome, PostedEntry, PostOptions } from './engine.ts';
export {
  type AccountRef,
  BOOKS,
  type Book,
  BUCKETS,
  type Bucket,
  CUSTOMER_ACCOUNT_TYPES,
  type CustomerAccountType,
  type EntryInput,
  familyCode,
  isPlatformCode,
  LEDGER_LIMITS,
  LedgerInvariantError,
  PLATFORM_ACCOUNT_FAMILIES,
  PLATFORM_ACCOUNTS,
  type PlatformCode,
  type PlatformFamily,
  type PostingInput,
  platformSpec,
  spotFeeAccount,
} from './model.ts';
/**
 * Read-only queries, also on the Ledger object; importable directly for code that has a Db or Tx but
 * no Ledger instance (record sources, repositories).
 */
export {
  type CustomerTotalRow,
  customerJournalPage,
  customerJournalReasons,
  customerJournalVolume,
  customerTotals,
  customerTurnover,
  entryIdByKey,
  type JournalPageQuery,
  type JournalPageRow,
  type JournalScope,
  type PlatformMovementRow,
  platformMovements,
} from './repo.ts';
export {
  type Balance,
  type CustomerAccount,
  createLedger,
  DEFAULT_DEMO_GRANT,
  type EntryDetail,
  type EntryMeta,
  type Ledger,
  type LedgerDeps,
} from './service.ts';
export {
  formatReport,
  LEDGER_ALARM_MESSAGE,
  type Mismatch,
  reportSummary,
  scheduleVerification,
  type VerificationSchedule,
  type VerifyReport,
  verifyLedger,
} from './verify.ts';
