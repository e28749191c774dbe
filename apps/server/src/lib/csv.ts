import { ASSET_LIMITS } from '@bourse/protocol';
import type { FastifyReply } from 'fastify';

/**
 * CSV as every record export writes it: RFC 4180 quoting, CRLF line ends, UTF-8 with a BOM so
 * spreadsheets read Chinese, and a guard against formula injection.
 */

/** Most rows one export answers (the asset records' and the trade records' exports alike). */
export const EXPORT_ROWS_MAX: number = ASSET_LIMITS.exportRowsMax;

/** The paging an export reads with: the first EXPORT_ROWS_MAX rows in the list's order. */
export const EXPORT_PAGING = { page: 1, pageSize: EXPORT_ROWS_MAX } as const;

/**
 * One cell. `text` cells that a spreadsheet would run as a formula (leading = + - @ tab CR) get an
 * apostrophe; numbers (exact decimal strings from the API, which may be negative) pass unchanged.
 */
export function csvCell(value: string, text = true): string {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A cell that is a number as the API returns it (never a float): quoted only if needed, no guard. */
export function csvNumber(value: string | null | undefined): string {
  return csvCell(value ?? '', false);
}

/** The document: BOM, header row, rows; every line (the last too) ends with CRLF. */
export function csvDocument(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [header.map((h) => csvCell(h, true)).join(','), ...rows.map((r) => r.join(','))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Sends a CSV export: text/csv, a download with `filename`, never cached. */
export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
