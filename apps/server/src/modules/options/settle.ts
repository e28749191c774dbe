import { parseDecimal } from '@bourse/money';
import { optionOutcome, ratioFromDecimal } from '@bourse/risk';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Tx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RecordedTick, TickConsumer } from '../../lib/ticks.ts';
import type { EntryInput, Ledger } from '../ledger/index.ts';
import { recordedTickAtOrBefore } from '../market/index.ts';
import { OPTION_CURRENCY } from './settings.ts';
import type { OptionsTables } from './tables.ts';

/**
 * An option whose instrument has not ticked past its expiry settles anyway once the clock is this
 * far past it (the instrument stopped ticking: closed, halted, a silent feed), on the last tick
 * recorded at or before the expiry. Must exceed the market recorder's lag (one 500 ms batch).
 */
export const OPTION_SETTLE_GRACE_MS = 10_000;
/** Options settled per statement batch (one bulk update and one ledger group commit each). */
export const OPTION_SETTLE_CHUNK = 1_000;

type OrderRow = OptionsTables['options_order'];
type Due = Pick<
  OrderRow,
  | 'id'
  | 'customer_id'
  | 'book'
  | 'instrument_id'
  | 'direction'
  | 'stake_units'
  | 'payout_rate'
  | 'open_price'
  | 'expires_at'
>;

const DUE_COLUMNS = [
  'id',
  'customer_id',
  'book',
  'instrument_id',
  'direction',
  'stake_units',
  'payout_rate',
  'open_price',
  'expires_at',
] as const;

/** Both prices to integers at one common scale (recorded prices are exact decimals of the instrument's tick). */
function priceUnits(text: string): bigint {
  const p = parseDecimal(String(text), { scale: 12, maxIntegerDigits: 24 });
  if (!p.ok) throw new Error(`recorded price ${text} is not a decimal`);
  return p.units;
}

/** The ledger entry that settles one option from its frozen stake (idempotency `option:settle:<id>`). */
export function settlementEntry(
  o: Pick<Due, 'id' | 'customer_id' | 'book'>,
  stake: bigint,
  payout: bigint,
): EntryInput {
  const customer = { book: o.book, customerId: o.customer_id, accountType: 'options' as const };
  const house = { book: o.book, platform: 'options_house' as const };
  const c = OPTION_CURRENCY;
  const postings =
    payout === 0n
      ? [
          { account: customer, currency: c, bucket: 'frozen' as const, amountUnits: -stake },
          { account: house, currency: c, amountUnits: stake },
        ]
      : payout === stake
        ? [
            { account: customer, currency: c, bucket: 'frozen' as const, amountUnits: -stake },
            { account: customer, currency: c, amountUnits: stake },
          ]
        : [
            { account: customer, currency: c, bucket: 'frozen' as const, amountUnits: -stake },
            { account: customer, currency: c, amountUnits: payout },
            { account: house, currency: c, amountUnits: stake - payout },
          ];
  return {
    reason: 'option.settle',
    reference: { type: 'option', id: o.id },
    idempotencyKey: `option:settle:${o.id}`,
    postings,
  };
}

/**
 * Settles due options on recorded ticks, each exactly once: the order row changes only
 * `where status = 'open'`, and only the rows that changed get their ledger entry — all through
 * the engine's transaction. Returns the number settled.
 */
export async function settleDue(
  tx: Tx,
  deps: { ledger: Ledger; log: Logger; now: Date },
  due: readonly Due[],
): Promise<number> {
  const ticks = new Map<string, RecordedTick | null>();
  const ids: string[] = [];
  const statuses: string[] = [];
  const prices: string[] = [];
  const sources: string[] = [];
  const ats: Date[] = [];
  const seqs: string[] = [];
  const payouts: string[] = [];
  const profits: string[] = [];
  const entries = new Map<string, EntryInput>();
  for (const o of due) {
    const key = `${o.instrument_id}|${o.expires_at.getTime()}`;
    if (!ticks.has(key)) ticks.set(key, await recordedTickAtOrBefore(tx, o.instrument_id, o.expires_at));
    const tick = ticks.get(key) ?? null;
    if (!tick) {
      // The opening tick is not in the record yet (recorder behind, or pruned): wait for it.
      deps.log.warn({ option: o.id }, 'option due but no recorded tick at or before its expiry yet');
      continue;
    }
    const stake = BigInt(o.stake_units);
    const outcome = optionOutcome(
      o.direction,
      priceUnits(o.open_price),
      priceUnits(tick.price),
      stake,
      ratioFromDecimal(String(o.payout_rate)),
    );
    ids.push(o.id);
    statuses.push(outcome.status);
    prices.push(tick.price);
    sources.push(tick.source);
    ats.push(tick.at);
    seqs.push(tick.seq.toString());
    payouts.push(outcome.payoutUnits.toString());
    profits.push((outcome.payoutUnits - stake).toString());
    entries.set(o.id, settlementEntry(o, stake, outcome.payoutUnits));
  }
  if (ids.length === 0) return 0;
  const updated = await sql<{ id: string }>`
    update options_order o set
      status = s.status, settlement_price = s.price::numeric, settlement_price_source = s.source,
      settlement_price_at = s.at, settlement_tick_seq = s.seq::bigint, payout_units = s.payout::numeric,
      profit_units = s.profit::numeric, settled_at = ${deps.now}
    from unnest(${ids}::text[], ${statuses}::text[], ${prices}::text[], ${sources}::text[],
                ${ats}::timestamptz[], ${seqs}::text[], ${payouts}::text[], ${profits}::text[])
      as s(id, status, price, source, at, seq, payout, profit)
    where o.id = s.id and o.status = 'open'
    returning o.id`.execute(tx);
  const posting = updated.rows.map((r) => entries.get(r.id) as EntryInput);
  for (let i = 0; i < posting.length; i += 1_000) {
    const outcomes = await deps.ledger.postBatch(tx, posting.slice(i, i + 1_000));
    for (const out of outcomes)
      if (!out.ok) throw new Error(`option settlement refused by the ledger: ${out.refusal.reason} — a bug`);
  }
  return updated.rows.length;
}

/**
 * The options consumer of the risk engine (lib/ticks.ts). `onTicks`: an option of an instrument
 * settles once a tick of that instrument later than its expiry has been recorded. `onTime`: an
 * option not settled `OPTION_SETTLE_GRACE_MS` after its expiry settles anyway. Both settle on the
 * last tick recorded at or before the expiry (`recordedTickAtOrBefore`), never on a later one.
 */
export function createOptionsConsumer(deps: { ledger: Ledger; log: Logger; clock: Clock }): TickConsumer & {
  settled: () => number;
} {
  let total = 0;
  async function drain(
    tx: Tx,
    now: Date,
    select: (after: { at: Date; id: string } | null) => Promise<Due[]>,
  ): Promise<void> {
    let after: { at: Date; id: string } | null = null;
    for (;;) {
      const due = await select(after);
      if (due.length === 0) return;
      total += await settleDue(tx, { ledger: deps.ledger, log: deps.log, now }, due);
      const last = due[due.length - 1] as Due;
      after = { at: last.expires_at, id: last.id };
      if (due.length < OPTION_SETTLE_CHUNK) return;
    }
  }
  return {
    name: 'options',
    settled: () => total,
    async onTicks(tx, ticks) {
      if (ticks.length === 0) return;
      const newest = new Map<string, Date>();
      for (const t of ticks) {
        const seen = newest.get(t.instrumentId);
        if (!seen || t.at > seen) newest.set(t.instrumentId, t.at);
      }
      const instrumentIds = [...newest.keys()];
      const ats = instrumentIds.map((id) => newest.get(id) as Date);
      await drain(tx, deps.clock.now(), async (after) => {
        const rows = await sql<Due>`
          select ${sql.join(DUE_COLUMNS.map((c) => sql.ref(`o.${c}`)))}
          from options_order o
          join unnest(${instrumentIds}::text[], ${ats}::timestamptz[]) as r(instrument_id, at)
            on r.instrument_id = o.instrument_id
          where o.status = 'open' and o.expires_at < r.at
            ${after ? sql`and (o.expires_at, o.id) > (${after.at}, ${after.id})` : sql``}
          order by o.expires_at, o.id
          limit ${OPTION_SETTLE_CHUNK}`.execute(tx);
        return rows.rows;
      });
    },
    async onTime(tx, now) {
      const cutoff = new Date(now.getTime() - OPTION_SETTLE_GRACE_MS);
      await drain(tx, now, async (after) => {
        let q = tx
          .selectFrom('options_order')
          .select(DUE_COLUMNS)
          .where('status', '=', 'open')
          .where('expires_at', '<=', cutoff);
        if (after) q = q.where(sql<boolean>`(expires_at, id) > (${after.at}, ${after.id})`);
        return q.orderBy('expires_at').orderBy('id').limit(OPTION_SETTLE_CHUNK).execute();
      });
    },
  };
}
