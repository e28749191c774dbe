import { catalogs, lookup } from '@bourse/i18n';
import { scaleOf, toDecimalString } from '@bourse/money';
import {
  ASSET_LIMITS,
  type Lang,
  ledgerReasonKey,
  type RecordItem,
  type RecordKind,
  type RecordRefKind,
  type RecordStatus,
  type RecordsPage,
  type RecordsQuery,
} from '@bourse/protocol';
import type { Db } from '../../db/database.ts';
import { dateRangeOf, pageOf } from '../../http/paging.ts';
import { refuse } from '../../http/refusal.ts';
import { csvCell, csvDocument, csvNumber } from '../../lib/csv.ts';
import { type Book, customerJournalPage, customerJournalReasons } from '../ledger/index.ts';

/**
 * Record screens, generically. A record *source* answers one or more record kinds for one customer
 * with filters and a page; the journal source (below) answers `all`, `money`, `account` and `deal`
 * from the ledger's journal reads (`customerJournalPage`); deposits register `recharge`; withdrawals
 * register `withdraw`. Every kind gets the same paging, filter parsing and CSV export.
 */
export type RecordFilters = {
  type: string | null;
  currency: string | null;
  accountType: string | null;
  status: RecordStatus | null;
  /** ms, inclusive */
  fromMs: number | null;
  /** ms, exclusive */
  toMs: number | null;
};

export type RecordListInput = {
  customerId: string;
  book: Book;
  kind: RecordKind;
  filters: RecordFilters;
  offset: number;
  limit: number;
};

export type RecordSource = {
  kinds: readonly RecordKind[];
  list(db: Db, input: RecordListInput): Promise<{ total: number; types: string[]; items: RecordItem[] }>;
};

export type ParsedRecordsQuery = {
  kind: RecordKind;
  filters: RecordFilters;
  page: number;
  pageSize: number;
};

/** Reads the shared query fields (RecordsQuery); refuses what cannot be answered. */
export function parseRecordsQuery(query: RecordsQuery): ParsedRecordsQuery {
  const { page, pageSize } = pageOf(query, { pageSizeDefault: 20, pageSizeMax: ASSET_LIMITS.pageSizeMax });
  const range = dateRangeOf(query);
  const fromMs = range.from?.getTime() ?? null;
  const toMs = range.to?.getTime() ?? null;
  const type = query.type?.trim() || null;
  if (type !== null && !/^[a-z][a-z0-9_.]{0,31}$/.test(type)) refuse('BAD_INPUT', { field: 'type' });
  const currency = query.currency?.trim() || null;
  if (currency !== null && !/^[A-Z0-9]{2,12}$/.test(currency)) refuse('BAD_INPUT', { field: 'currency' });
  return {
    kind: query.kind,
    page,
    pageSize,
    filters: {
      type,
      currency,
      accountType: query.account_type ?? null,
      status: query.status === undefined ? null : (Number(query.status) as RecordStatus),
      fromMs,
      toMs,
    },
  };
}

/** Journal reasons that each journal kind shows (prefix match); `all` and `account` show every entry. */
export const JOURNAL_KIND_PREFIXES: Readonly<Record<'money' | 'deal', readonly string[]>> = {
  money: ['deposit', 'withdraw', 'transfer', 'adjust', 'credit', 'debit', 'reward', 'demo'],
  deal: ['spot', 'trade', 'fill', 'order', 'option', 'contract', 'fee', 'funding', 'liquidation', 'settle'],
};

export type JournalQuery = {
  customerId: string;
  book: Book;
  /** Only entries whose reason starts with one of these (none: every entry). */
  reasonPrefixes?: readonly string[];
  /** Only entries referencing these business objects' types (e.g. `withdrawal`). */
  referenceTypes?: readonly string[];
  /** Fold freeze/unfreeze moves (zero net change) into the business rows that consume them. */
  hideBucketMoves?: boolean;
  filters: RecordFilters;
  offset: number;
  limit: number;
};

export type JournalRow = RecordItem & {
  entry_id: string;
  reference_type: string;
  reference_id: string;
  /** Change of the frozen bucket in this row (the `amount` is available + frozen). */
  frozen_change: string;
};

/**
 * The customer's journal, one row per (entry, account type, currency): what changed in that account
 * and why. Journal entries are committed facts, so their status is always 2 (success); modules with
 * pending or failed requests keep those in their own tables and list them through their own source.
 * Withdrawals reuse this with `referenceTypes: ['withdrawal']` to show the ledger side of a request.
 */
export async function journalRecords(
  db: Db,
  input: JournalQuery,
): Promise<{ total: number; types: string[]; items: JournalRow[] }> {
  const f = input.filters;
  // Journal rows are all successes: a filter on another status matches nothing.
  if (f.status !== null && f.status !== 2) return { total: 0, types: [], items: [] };
  const scope = {
    customerId: input.customerId,
    book: input.book,
    reasonPrefixes: input.reasonPrefixes,
    referenceTypes: input.referenceTypes,
    hideBucketMoves: input.hideBucketMoves,
  };
  const [page, types] = await Promise.all([
    customerJournalPage(db, {
      ...scope,
      reason: f.type ?? undefined,
      currency: f.currency ?? undefined,
      accountType: f.accountType ?? undefined,
      from: f.fromMs !== null ? new Date(f.fromMs) : undefined,
      to: f.toMs !== null ? new Date(f.toMs) : undefined,
      offset: input.offset,
      limit: input.limit,
    }),
    customerJournalReasons(db, scope),
  ]);

  const items = page.rows.map((r): JournalRow => {
    const scale = scaleOf(r.currency);
    const frozen = r.frozenUnits;
    return {
      id: `${r.entryId}:${r.accountType}:${r.currency}`,
      entry_id: r.entryId,
      time: r.createdAt.getTime(),
      type: r.reason,
      currency: r.currency,
      amount: toDecimalString(r.netUnits, scale),
      account_type: r.accountType,
      status: 2,
      detail: journalDetail(r.referenceType, r.referenceId),
      ...journalRef(r.referenceType, r.referenceId),
      reference_type: r.referenceType,
      reference_id: r.referenceId,
      frozen_change: toDecimalString(frozen, scale),
    };
  });
  return { total: page.total, types, items };
}

/** Business objects behind journal entries, by the entry's reference type. */
const REF_KINDS: Readonly<Record<string, RecordRefKind>> = {
  spot_order: 'spot_order',
  spot_trade: 'spot_order',
  deposit: 'deposit',
  withdrawal: 'withdrawal',
  transfer: 'transfer',
  contract_order: 'contract',
  contract_position: 'contract',
  option: 'option',
};

function journalRef(referenceType: string, referenceId: string): Pick<RecordItem, 'ref'> {
  const kind = REF_KINDS[referenceType];
  return kind ? { ref: { kind, id: referenceId } } : {};
}

/**
 * What a customer can read about an entry without internal ids: the market of a spot trade
 * (`BTCUSDT:real:42` → `BTCUSDT`); other rows say it all with their type and link.
 */
function journalDetail(referenceType: string, referenceId: string): string {
  if (referenceType === 'spot_trade') return referenceId.split(':')[0] ?? '';
  return '';
}

/** The journal as a record source for the four journal kinds. */
export const journalSource: RecordSource = {
  kinds: ['all', 'money', 'account', 'deal'],
  async list(db, input) {
    const reasonPrefixes =
      input.kind === 'money' || input.kind === 'deal' ? JOURNAL_KIND_PREFIXES[input.kind] : undefined;
    const result = await journalRecords(db, { ...input, reasonPrefixes, hideBucketMoves: true });
    return {
      total: result.total,
      types: result.types,
      items: result.items.map(({ entry_id, reference_type, reference_id, frozen_change, ...item }) => item),
    };
  },
};

export type RecordRegistry = {
  register(source: RecordSource): void;
  page(db: Db, input: { customerId: string; book: Book; query: RecordsQuery }): Promise<RecordsPage>;
  /** Every matching row (at most ASSET_LIMITS.exportRowsMax) as CSV with a header in `lang`. */
  csv(db: Db, input: { customerId: string; book: Book; query: RecordsQuery; lang: Lang }): Promise<string>;
};

export function createRecordRegistry(): RecordRegistry {
  const sources = new Map<RecordKind, RecordSource>();
  function sourceOf(kind: RecordKind): RecordSource {
    const source = sources.get(kind);
    // A kind whose module is not installed has no records (yet): an empty list, not an error.
    return source ?? { kinds: [kind], list: async () => ({ total: 0, types: [], items: [] }) };
  }
  return {
    register(source) {
      for (const kind of source.kinds) {
        if (sources.has(kind)) throw new Error(`record kind ${kind} has two sources`);
        sources.set(kind, source);
      }
    },
    async page(db, input) {
      const parsed = parseRecordsQuery(input.query);
      const result = await sourceOf(parsed.kind).list(db, {
        customerId: input.customerId,
        book: input.book,
        kind: parsed.kind,
        filters: parsed.filters,
        offset: (parsed.page - 1) * parsed.pageSize,
        limit: parsed.pageSize,
      });
      return {
        total: result.total,
        page: parsed.page,
        page_size: parsed.pageSize,
        types: result.types,
        items: result.items,
      };
    },
    async csv(db, input) {
      const parsed = parseRecordsQuery(input.query);
      const result = await sourceOf(parsed.kind).list(db, {
        customerId: input.customerId,
        book: input.book,
        kind: parsed.kind,
        filters: parsed.filters,
        offset: 0,
        limit: ASSET_LIMITS.exportRowsMax,
      });
      return recordsToCsv(result.items, input.lang);
    },
  };
}

const CSV_COLUMNS = ['id', 'time', 'type', 'currency', 'amount', 'account', 'status', 'detail'] as const;

function label(lang: Lang, key: string, fallback: string): string {
  return lookup(catalogs[lang].assets, key) ?? fallback;
}

/** The customer label of a record type: a ledger reason, else a business type, else the code. */
export function typeLabel(lang: Lang, type: string): string {
  return lookup(catalogs[lang].assets, ledgerReasonKey(type)) ?? label(lang, `records.type.${type}`, type);
}

/** "Completed", "Processing", "Failed: <reason>", "Held (below minimum)" in `lang`. */
export function statusLabel(lang: Lang, item: Pick<RecordItem, 'status' | 'held' | 'failure'>): string {
  if (item.held) return label(lang, 'records.held', 'held');
  const plain = label(lang, `records.status.${item.status}`, String(item.status));
  if (item.status !== 0 || !item.failure) return plain;
  return label(lang, 'records.failedWith', 'Failed: {{reason}}').replace('{{reason}}', item.failure);
}

/** CSV (RFC 4180, CRLF, UTF-8 with BOM so spreadsheets read Chinese) with a localized header row. */
export function recordsToCsv(items: readonly RecordItem[], lang: Lang): string {
  const header = CSV_COLUMNS.map((c) => label(lang, `records.column.${c}`, c));
  const rows = items.map((item) => [
    csvCell(item.id, true),
    new Date(item.time).toISOString(),
    csvCell(typeLabel(lang, item.type), true),
    item.currency,
    csvNumber(item.amount),
    csvCell(
      item.account_type ? label(lang, `accountType.${item.account_type}`, item.account_type) : '',
      true,
    ),
    csvCell(statusLabel(lang, item), true),
    csvCell(item.detail, true),
  ]);
  return csvDocument(header, rows);
}
