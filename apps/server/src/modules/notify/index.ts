/** What other modules use from notify: the notifier (messages to customers) and the outbox list. */
export { notifyMigrations } from './migrations.ts';
export { listOutbox } from './repo.ts';
export {
  createNotifier,
  type InboxPort,
  isSecurityKind,
  type Message,
  type Notifier,
  type PhrasePort,
  type SendOptions,
  type Transport,
  withKind,
  withPhrase,
} from './service.ts';
export type { NotifyTables } from './tables.ts';
