import { parseDecimal } from '@bourse/money';
import { optionOutcome, ratioFromDecimal } from '@bourse/risk';
import type { Logger } from 'pino';
import type { Tx } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RecordedTick, TickConsumer } from '../../lib/ticks.ts';
import type { EntryInput, Ledger } from '../ledger/index.ts';
import { recordedTickAtOrBefore } from '../market/index.ts';
import {
  type Due,
  type DueCursor,
  dueByTime,
  dueOnTicks,
  type Settlements,
  settleOpenOrders,
} from './repo.ts';
import { OPTION_CURRENCY } from './settings.ts';

/**
 * An option whose instrument has not ticked past its expiry settles anyway once the clock is this
 * far past it (the instrument stopped ticking: closed, halted, a silent feed), on the last tick
 * recorded at or before the expiry. Must exceed the market recorder's lag (one 500 ms batch).
 */
export const OPTION_SETTLE_GRACE_MS = 10_000;
/** Options settled per statement batch (one bulk update and one ledger group commit each). */
export const OPTION_SETTLE_CHUNK = 1_000;

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
  const settlements: Settlements = {
    ids: [],
    statuses: [],
    prices: [],
    sources: [],
    ats: [],
    seqs: [],
    payouts: [],
    profits: [],
  };
  const { ids, statuses, prices, sources, ats, seqs, payouts, profits } = settlements;
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
  const updated = await settleOpenOrders(tx, settlements, deps.now);
  const posting = updated.map((id) => entries.get(id) as EntryInput);
  for (const out of await deps.ledger.postAll(tx, posting))
    if (!out.ok) throw new Error(`option settlement refused by the ledger: ${out.refusal.reason} — a bug`);
  return updated.length;
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
  async function drain(tx: Tx, now: Date, select: (after: DueCursor) => Promise<Due[]>): Promise<void> {
    let after: DueCursor = null;
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
      await drain(tx, deps.clock.now(), (after) =>
        dueOnTicks(tx, { instrumentIds, ats, after, limit: OPTION_SETTLE_CHUNK }),
      );
    },
    async onTime(tx, now) {
      const cutoff = new Date(now.getTime() - OPTION_SETTLE_GRACE_MS);
      await drain(tx, now, (after) => dueByTime(tx, { cutoff, after, limit: OPTION_SETTLE_CHUNK }));
    },
  };
}
