/** CSV (RFC 4180) of withdrawal records; a leading =,+,- or @ is quoted away from spreadsheets' formulas. */
const COLUMNS = [
  'id',
  'created_at',
  'method',
  'currency',
  'chain',
  'destination',
  'amount',
  'fee',
  'received',
  'status',
  'state',
  'reject_reason',
  'tx_hash',
] as const;

function cell(value: unknown): string {
  let text = String(value ?? '');
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: ReadonlyArray<Record<(typeof COLUMNS)[number], unknown>>): string {
  const lines = [COLUMNS.join(',')];
  for (const row of rows) {
    lines.push(
      COLUMNS.map((c) => (c === 'created_at' ? new Date(Number(row[c])).toISOString() : cell(row[c]))).join(
        ',',
      ),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
