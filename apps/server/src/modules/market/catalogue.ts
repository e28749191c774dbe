import fs from 'node:fs';
import path from 'node:path';
import { parseUnitsOrThrow, toDecimalString } from '@bourse/money';
import { type Db, inTransaction, isUniqueViolation } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { parseCsv } from './csv.ts';
import {
  CATALOGUE_COLUMNS,
  type CatalogueColumn,
  type CatalogueEntry,
  type Instrument,
  PRICE_SCALE_MAX,
  QTY_SCALE,
  toInstrument,
  validateEntry,
} from './instrument.ts';
import {
  countInstruments,
  findInstrumentsBySymbol,
  type InstrumentRow,
  insertInstruments,
  listInstruments,
  pricedInstrumentIds,
  updateInstrument,
} from './repo.ts';

/** The catalogue a fresh install starts with (≥ 60 instruments across every asset class). */
export const DEFAULT_CATALOGUE_FILE = path.join(import.meta.dirname, 'fixtures', 'instruments.csv');

export const IMPORT_LIMITS = {
  /** Rows per import; the importer checks every row before writing any. */
  maxRows: 20_000,
  maxBytes: 8 * 1024 * 1024,
} as const;

const REQUIRED: readonly CatalogueColumn[] = [
  'symbol',
  'name',
  'class',
  'base',
  'quote',
  'price_tick',
  'lot_size',
  'max_leverage',
  'trading_hours',
  'ref_price',
];

export type ImportSummary = { rows: number; inserted: number; updated: number; unchanged: number };

/** Reads and checks the whole CSV; refuses (naming line and field) before anything is written. */
export function readCatalogueCsv(text: string): Array<{ line: number; entry: CatalogueEntry }> {
  if (Buffer.byteLength(text) > IMPORT_LIMITS.maxBytes)
    refuse('IMPORT_TOO_LARGE', { maxRows: IMPORT_LIMITS.maxRows });
  const records = parseCsv(text);
  const header = records[0]?.fields.map((f) => f.trim().toLowerCase()) ?? [];
  for (const column of REQUIRED) {
    if (!header.includes(column)) refuse('IMPORT_ROW_INVALID', { line: 1, field: column });
  }
  for (const column of header) {
    if (!(CATALOGUE_COLUMNS as readonly string[]).includes(column))
      refuse('IMPORT_ROW_INVALID', { line: 1, field: column });
  }
  if (records.length - 1 > IMPORT_LIMITS.maxRows)
    refuse('IMPORT_TOO_LARGE', { maxRows: IMPORT_LIMITS.maxRows });
  const position = new Map(header.map((name, i) => [name, i]));
  const seen = new Set<string>();
  const out: Array<{ line: number; entry: CatalogueEntry }> = [];
  for (const record of records.slice(1)) {
    const get = (column: CatalogueColumn) => {
      const at = position.get(column);
      return at === undefined ? '' : (record.fields[at] ?? '').trim();
    };
    const result = validateEntry(get);
    if (!result.ok) refuse('IMPORT_ROW_INVALID', { line: record.line, field: result.field });
    if (seen.has(result.entry.symbol)) refuse('IMPORT_ROW_INVALID', { line: record.line, field: 'symbol' });
    seen.add(result.entry.symbol);
    out.push({ line: record.line, entry: result.entry });
  }
  return out;
}

const canonical = (value: string, scale: number) =>
  toDecimalString(parseUnitsOrThrow(value, { scale }), scale);

function sameEntry(row: InstrumentRow, entry: CatalogueEntry): boolean {
  return (
    row.name === entry.name &&
    row.asset_class === entry.asset_class &&
    row.base === entry.base &&
    row.quote === entry.quote &&
    canonical(row.price_tick, PRICE_SCALE_MAX) === entry.price_tick &&
    canonical(row.lot_size, QTY_SCALE) === entry.lot_size &&
    canonical(row.contract_size, QTY_SCALE) === entry.contract_size &&
    row.max_leverage === entry.max_leverage &&
    row.trading_hours === entry.trading_hours &&
    row.status === entry.status &&
    canonical(row.ref_price, PRICE_SCALE_MAX) === entry.ref_price &&
    row.feed_symbol === entry.feed_symbol &&
    (row.expiry_at?.getTime() ?? null) === (entry.expiry_at?.getTime() ?? null) &&
    row.rank === entry.rank
  );
}

/**
 * Imports a catalogue CSV in one transaction: new symbols are added, known ones updated. A tick
 * size cannot change once an instrument has a recorded price (stored ticks and candles would
 * change meaning): such a row is refused, and the whole import with it.
 */
export async function importCatalogue(deps: { db: Db; clock: Clock }, text: string): Promise<ImportSummary> {
  const rows = readCatalogueCsv(text);
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    const existing = new Map<string, InstrumentRow>();
    for (let i = 0; i < rows.length; i += 5_000) {
      const part = rows.slice(i, i + 5_000).map((r) => r.entry.symbol);
      for (const row of await findInstrumentsBySymbol(tx, part)) existing.set(row.symbol, row);
    }
    const priced = await pricedInstrumentIds(
      tx,
      [...existing.values()].map((r) => r.id),
    );
    const fresh: InstrumentRow[] = [];
    const summary: ImportSummary = { rows: rows.length, inserted: 0, updated: 0, unchanged: 0 };
    for (const { line, entry } of rows) {
      const row = existing.get(entry.symbol);
      if (!row) {
        fresh.push({ ...entry, id: newId('ins', now.getTime()), created_at: now, updated_at: now });
        summary.inserted += 1;
        continue;
      }
      if (sameEntry(row, entry)) {
        summary.unchanged += 1;
        continue;
      }
      if (priced.has(row.id) && canonical(row.price_tick, PRICE_SCALE_MAX) !== entry.price_tick) {
        refuse('IMPORT_ROW_INVALID', { line, field: 'price_tick' });
      }
      await updateInstrument(tx, row.id, { ...entry, updated_at: now });
      summary.updated += 1;
    }
    await insertInstruments(tx, fresh);
    return summary;
  });
}

/** Seeds the default catalogue into an empty database; returns the number of instruments added. */
export async function seedDefaultCatalogue(deps: { db: Db; clock: Clock }): Promise<number> {
  if ((await countInstruments(deps.db)) > 0) return 0;
  try {
    const summary = await importCatalogue(deps, fs.readFileSync(DEFAULT_CATALOGUE_FILE, 'utf8'));
    return summary.inserted;
  } catch (error) {
    // Another process starting at the same moment seeded it first.
    if (isUniqueViolation(error)) return 0;
    throw error;
  }
}

export async function loadCatalogue(db: Db): Promise<Instrument[]> {
  const rows = await listInstruments(db);
  return rows.map((row, index) => toInstrument(row, index));
}

/**
 * One instrument added by a product (a launchpad listing), checked like a CSV row: refused naming the
 * field; a row already there with the same settings is kept (a retry changes nothing), one with other
 * settings refused.
 */
export async function addInstrument(
  deps: { db: Db; clock: Clock },
  input: Partial<Record<CatalogueColumn, string>>,
): Promise<void> {
  const result = validateEntry((column) => (input[column] ?? '').trim());
  if (!result.ok) refuse('INSTRUMENT_INVALID', { field: result.field });
  const entry = result.entry;
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx) => {
    const [row] = await findInstrumentsBySymbol(tx, [entry.symbol]);
    if (row) {
      if (!sameEntry(row, entry)) refuse('INSTRUMENT_EXISTS', { symbol: entry.symbol });
      return;
    }
    await insertInstruments(tx, [
      { ...entry, id: newId('ins', now.getTime()), created_at: now, updated_at: now },
    ]);
  });
}
