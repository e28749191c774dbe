import type { Db, Tx } from '../../db/database.ts';
import type { RecordedTick } from '../../lib/ticks.ts';

/**
 * Reads of the tick record for the modules that act on recorded prices (the risk engine, option
 * expiries, delivery, funding). Read-only; market stays the only module that writes its tables.
 */
type Q = Db | Tx;

function toRecorded(row: {
  seq: string | number | bigint;
  instrument_id: string;
  symbol: string;
  at: Date;
  price: string;
  bid: string;
  ask: string;
  mark: string;
  source: string;
}): RecordedTick {
  return Object.freeze({
    seq: BigInt(row.seq),
    instrumentId: row.instrument_id,
    symbol: row.symbol,
    at: row.at,
    price: String(row.price),
    bid: String(row.bid),
    ask: String(row.ask),
    mark: String(row.mark),
    source: row.source,
  });
}

const COLUMNS = [
  'market_tick.seq',
  'market_tick.instrument_id',
  'market_instrument.symbol',
  'market_tick.at',
  'market_tick.price',
  'market_tick.bid',
  'market_tick.ask',
  'market_tick.mark',
  'market_tick.source',
] as const;

/** Ticks of record with `seq` > `afterSeq`, in seq order, at most `limit`. */
export async function recordedTicksAfter(q: Q, afterSeq: bigint, limit: number): Promise<RecordedTick[]> {
  const rows = await q
    .selectFrom('market_tick')
    .innerJoin('market_instrument', 'market_instrument.id', 'market_tick.instrument_id')
    .select(COLUMNS)
    .where('market_tick.seq', '>', afterSeq.toString() as never)
    .orderBy('market_tick.seq')
    .limit(limit)
    .execute();
  return rows.map(toRecorded);
}

/** The newest tick of record of one instrument at or before `at` (a settlement or funding price), or null. */
export async function recordedTickAtOrBefore(
  q: Q,
  instrumentId: string,
  at: Date,
): Promise<RecordedTick | null> {
  const row = await q
    .selectFrom('market_tick')
    .innerJoin('market_instrument', 'market_instrument.id', 'market_tick.instrument_id')
    .select(COLUMNS)
    .where('market_tick.instrument_id', '=', instrumentId)
    .where('market_tick.at', '<=', at)
    .orderBy('market_tick.at', 'desc')
    .orderBy('market_tick.seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toRecorded(row) : null;
}

/** The newest seq of record (0 when nothing is recorded): where a new risk engine's cursor starts. */
export async function latestRecordedSeq(q: Q): Promise<bigint> {
  const row = await q
    .selectFrom('market_tick')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return row?.seq == null ? 0n : BigInt(row.seq);
}
