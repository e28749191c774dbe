import { sql } from 'kysely';
import type { Db, Tx } from '../../db/database.ts';
import { textArray } from '../../db/pgarray.ts';
import type { MarketTables } from './tables.ts';

/** The only SQL on the market_* tables. */
type Q = Db | Tx;
export type InstrumentRow = MarketTables['market_instrument'];
export type TickRow = MarketTables['market_tick'];
export type CandleRow = MarketTables['market_candle'];
export type PriceRow = MarketTables['market_price'];

/** Rows per INSERT statement: well under PostgreSQL's 65,535 parameters for every table here. */
export const INSERT_CHUNK_ROWS = 2_000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK_ROWS) out.push(rows.slice(i, i + INSERT_CHUNK_ROWS));
  return out;
}

// ---- Catalogue -------------------------------------------------------------------------------

export async function countInstruments(q: Q): Promise<number> {
  const row = await q
    .selectFrom('market_instrument')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number.parseInt(row.n, 10);
}

export async function listInstruments(q: Q): Promise<InstrumentRow[]> {
  return q.selectFrom('market_instrument').selectAll().orderBy('rank').orderBy('symbol').execute();
}

/** Changes whenever a row is added or edited: the running server reloads its catalogue on change. */
export async function catalogueVersion(q: Q): Promise<string> {
  const row = await q
    .selectFrom('market_instrument')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('updated_at').as('latest')])
    .executeTakeFirstOrThrow();
  return `${row.n}|${row.latest ? new Date(row.latest as Date).getTime() : 0}`;
}

export async function findInstrumentsBySymbol(q: Q, symbols: readonly string[]): Promise<InstrumentRow[]> {
  if (symbols.length === 0) return [];
  return q
    .selectFrom('market_instrument')
    .selectAll()
    .where('symbol', 'in', [...symbols])
    .forUpdate()
    .execute();
}

export async function insertInstruments(q: Q, rows: readonly InstrumentRow[]): Promise<void> {
  for (const part of chunks(rows)) await q.insertInto('market_instrument').values(part).execute();
}

export async function updateInstrument(
  q: Q,
  id: string,
  patch: Omit<Partial<InstrumentRow>, 'id' | 'symbol' | 'created_at'>,
): Promise<void> {
  await q.updateTable('market_instrument').set(patch).where('id', '=', id).execute();
}

/** Instruments (of `ids`) that have a recorded price: their tick size can no longer change. */
export async function pricedInstrumentIds(q: Q, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await q
    .selectFrom('market_price')
    .select('instrument_id')
    .where('instrument_id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.instrument_id));
}

// ---- Recorded stream -------------------------------------------------------------------------

export async function loadPrices(q: Q): Promise<PriceRow[]> {
  return q.selectFrom('market_price').selectAll().execute();
}

/** The candles of the given (interval, bucket) pairs, and the 15-minute candles since `windowFrom`. */
export async function loadStartCandles(
  q: Q,
  input: {
    buckets: ReadonlyArray<{ interval: string; openTime: Date }>;
    windowInterval: string;
    windowFrom: Date;
  },
): Promise<CandleRow[]> {
  return q
    .selectFrom('market_candle')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...input.buckets.map((b) =>
          eb.and([eb('interval', '=', b.interval), eb('open_time', '=', b.openTime)]),
        ),
        eb.and([eb('interval', '=', input.windowInterval), eb('open_time', '>=', input.windowFrom)]),
      ]),
    )
    .execute();
}

export type Cursor = { batchSeq: number; tickSeq: number };

export async function readCursor(q: Q, name: string): Promise<Cursor> {
  const row = await q
    .selectFrom('market_feed_cursor')
    .selectAll()
    .where('name', '=', name)
    .executeTakeFirst();
  return {
    batchSeq: row ? Number.parseInt(row.batch_seq, 10) : 0,
    tickSeq: row ? Number.parseInt(row.tick_seq, 10) : 0,
  };
}

/**
 * One recorded step: ticks, the candles they touched, the latest prices and the cursor — all or
 * nothing, in one statement. Each column goes as one array literal (`db/pgarray.ts`) unnested in SQL:
 * a second of a 3,000-instrument catalogue is ~3,000 ticks and ~24,000 candle states, which as
 * multi-row VALUES cost more to build, send and parse than to write.
 */
export async function persistBatch(
  tx: Tx,
  input: {
    ticks: TickRow[];
    candles: CandleRow[];
    prices: PriceRow[];
    cursorName: string;
    cursor: Cursor;
    now: Date;
  },
): Promise<void> {
  const { ticks: t, candles: c, prices: p } = input;
  const col = <R>(rows: readonly R[], of: (r: R) => string) => textArray(rows.map(of));
  const iso = (d: Date) => d.toISOString();
  await sql`
    with ticks as (
      insert into market_tick (seq, instrument_id, at, price, bid, ask, mark, size, source)
      select * from unnest(${col(t, (r) => String(r.seq))}::int8[], ${col(t, (r) => r.instrument_id)}::text[],
                           ${col(t, (r) => iso(r.at))}::timestamptz[], ${col(t, (r) => r.price)}::numeric[],
                           ${col(t, (r) => r.bid)}::numeric[], ${col(t, (r) => r.ask)}::numeric[],
                           ${col(t, (r) => r.mark)}::numeric[], ${col(t, (r) => r.size)}::numeric[],
                           ${col(t, (r) => r.source)}::text[])
    ), candles as (
      insert into market_candle as m (instrument_id, interval, open_time, open, high, low, close, volume, turnover, ticks)
      select * from unnest(${col(c, (r) => r.instrument_id)}::text[], ${col(c, (r) => r.interval)}::text[],
                           ${col(c, (r) => iso(r.open_time))}::timestamptz[], ${col(c, (r) => r.open)}::numeric[],
                           ${col(c, (r) => r.high)}::numeric[], ${col(c, (r) => r.low)}::numeric[],
                           ${col(c, (r) => r.close)}::numeric[], ${col(c, (r) => r.volume)}::numeric[],
                           ${col(c, (r) => r.turnover)}::numeric[], ${col(c, (r) => String(r.ticks))}::int4[])
      on conflict (instrument_id, interval, open_time) do update set
        open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
        volume = excluded.volume, turnover = excluded.turnover, ticks = excluded.ticks
    ), prices as (
      insert into market_price as m (instrument_id, last, bid, ask, mark, tick_seq, tick_at, source)
      select * from unnest(${col(p, (r) => r.instrument_id)}::text[], ${col(p, (r) => r.last)}::numeric[],
                           ${col(p, (r) => r.bid)}::numeric[], ${col(p, (r) => r.ask)}::numeric[],
                           ${col(p, (r) => r.mark)}::numeric[], ${col(p, (r) => String(r.tick_seq))}::int8[],
                           ${col(p, (r) => iso(r.tick_at))}::timestamptz[], ${col(p, (r) => r.source)}::text[])
      on conflict (instrument_id) do update set
        last = excluded.last, bid = excluded.bid, ask = excluded.ask, mark = excluded.mark,
        tick_seq = excluded.tick_seq, tick_at = excluded.tick_at, source = excluded.source
    )
    insert into market_feed_cursor as f (name, batch_seq, tick_seq, updated_at)
    values (${input.cursorName}, ${String(input.cursor.batchSeq)}, ${String(input.cursor.tickSeq)}, ${input.now})
    on conflict (name) do update set
      batch_seq = greatest(f.batch_seq, excluded.batch_seq),
      tick_seq = greatest(f.tick_seq, excluded.tick_seq),
      updated_at = excluded.updated_at`.execute(tx);
}

// ---- Queries ---------------------------------------------------------------------------------

/** The newest `limit` candles opening at or before `endTime`, oldest first. */
export async function klines(
  q: Q,
  input: { instrumentId: string; interval: string; endTime: Date; limit: number },
): Promise<CandleRow[]> {
  const rows = await q
    .selectFrom('market_candle')
    .selectAll()
    .where('instrument_id', '=', input.instrumentId)
    .where('interval', '=', input.interval)
    .where('open_time', '<=', input.endTime)
    .orderBy('open_time', 'desc')
    .limit(input.limit)
    .execute();
  return rows.reverse();
}

export async function candlesBetween(
  q: Q,
  input: { instrumentId: string; interval: string; from: Date; to: Date },
): Promise<CandleRow[]> {
  return q
    .selectFrom('market_candle')
    .selectAll()
    .where('instrument_id', '=', input.instrumentId)
    .where('interval', '=', input.interval)
    .where('open_time', '>=', input.from)
    .where('open_time', '<', input.to)
    .orderBy('open_time')
    .execute();
}

/** Recorded ticks of one instrument in [from, to), in stream order. */
export async function ticksBetween(
  q: Q,
  input: { instrumentId: string; from: Date; to: Date },
): Promise<TickRow[]> {
  return q
    .selectFrom('market_tick')
    .selectAll()
    .where('instrument_id', '=', input.instrumentId)
    .where('at', '>=', input.from)
    .where('at', '<', input.to)
    .orderBy('at')
    .orderBy('seq')
    .execute();
}

/** Deletes up to `limit` ticks recorded before `before`; returns how many. */
export async function pruneTicks(q: Q, input: { before: Date; limit: number }): Promise<number> {
  const result = await sql`
    delete from market_tick where seq in (
      select seq from market_tick where at < ${input.before} limit ${input.limit}
    )`.execute(q);
  return Number(result.numAffectedRows ?? 0n);
}

export async function pruneCandles(
  q: Q,
  input: { interval: string; before: Date; limit: number },
): Promise<number> {
  const result = await sql`
    delete from market_candle where ctid in (
      select ctid from market_candle where interval = ${input.interval} and open_time < ${input.before}
      limit ${input.limit}
    )`.execute(q);
  return Number(result.numAffectedRows ?? 0n);
}
