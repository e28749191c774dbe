import { catalogs, lookup } from '@bourse/i18n';
import type { Lang } from '@bourse/protocol';
import { csvCell, csvDocument, csvNumber } from '../../lib/csv.ts';

/** What one exported withdrawal carries (the customer's view of the row). */
export type WithdrawalCsvRow = {
  id: string;
  created_at: number;
  method: string;
  currency: string;
  chain: string;
  destination: string;
  amount: string;
  fee: string;
  received: string;
  state: string;
  reject_reason: string | null;
  tx_hash: string | null;
};

const COLUMNS = [
  'id',
  'time',
  'method',
  'currency',
  'chain',
  'destination',
  'amount',
  'fee',
  'received',
  'status',
  'txHash',
] as const;

/**
 * The withdrawal records as CSV (lib/csv.ts: BOM, CRLF, formula guard) with the screen's words in
 * `lang`: header, method, and the status a customer reads ("Awaiting review", "Failed: <reason>").
 */
export function toCsv(rows: readonly WithdrawalCsvRow[], lang: Lang): string {
  const l = (key: string, fallback: string) => lookup(catalogs[lang].withdraw, key) ?? fallback;
  const status = (row: WithdrawalCsvRow) =>
    (row.state === 'failed' || row.state === 'rejected') && row.reject_reason
      ? l('records.failedWith', 'Failed: {{reason}}').replace('{{reason}}', row.reject_reason)
      : l(`records.state.${row.state}`, row.state);
  return csvDocument(
    COLUMNS.map((c) => l(`records.columns.${c}`, c)),
    rows.map((row) => [
      csvCell(row.id),
      new Date(Number(row.created_at)).toISOString(),
      csvCell(l(`records.methods.${row.method}`, row.method)),
      csvCell(row.currency),
      csvCell(row.chain),
      csvCell(row.destination),
      csvNumber(row.amount),
      csvNumber(row.fee),
      csvNumber(row.received),
      csvCell(status(row)),
      csvCell(row.tx_hash ?? ''),
    ]),
  );
}
