import { REFERRAL_LIMITS, type ReferralFlagReason } from '@bourse/protocol';
import { effectiveReferralDepth, referralIncome } from '@bourse/risk';
import { inTransaction, type Tx } from '../../db/database.ts';
import { type JobSchedule, scheduleJob } from '../../db/schedule.ts';
import { newId } from '../../lib/ids.ts';
import type { FeePaidRow } from '../spot/index.ts';
import type { ReferralDeps } from './context.ts';
import * as repo from './repo.ts';

/**
 * The income job (README.md, "The job"): per spot market, reads the real book's fees after its
 * cursor and, for each fee paid by a customer who has inviters, pays each level its share from the
 * account that received the fee (the market's `spot_fees_<market>`, `fee_income` for trades settled
 * before markets had their own) to the inviter's spot balance — or records it excluded when the pair
 * is flagged — and advances the cursor, all in ONE transaction per batch. A crash repeats a batch whole or not at
 * all; the ledger keys and the unique line per (source, invitee, level) make a repeat one effect.
 * Fees paid while the programme is off or the profile allows depth 0 earn nothing, ever (the cursor
 * moves on).
 */

/** What a run did: lines paid, lines excluded, fee rows read. */
export type JobResult = { paid: number; excluded: number; read: number };

type Pair = { inviter: string; invitee: string };
type Linked = { excluded: ReferralFlagReason | null };

export async function runReferralJob(
  deps: ReferralDeps,
  options: { batch?: number } = {},
): Promise<JobResult> {
  const settings = await repo.settings(deps.db);
  const depth = settings.enabled ? effectiveReferralDepth(settings.depth, await deps.referralMaxDepth()) : 0;
  const limit = options.batch ?? REFERRAL_LIMITS.feesPerRunMax;
  const total: JobResult = { paid: 0, excluded: 0, read: 0 };
  for (const symbol of await deps.fees.markets(deps.db)) {
    for (;;) {
      const r = await inTransaction(deps.db, (tx) =>
        batch(deps, tx, { symbol, depth, sharesBps: settings.shares_bps, limit }),
      );
      total.paid += r.paid;
      total.excluded += r.excluded;
      total.read += r.read;
      if (r.read < limit) break;
    }
  }
  return total;
}

async function batch(
  deps: ReferralDeps,
  tx: Tx,
  input: { symbol: string; depth: number; sharesBps: readonly number[]; limit: number },
): Promise<JobResult> {
  const now = deps.clock.now();
  // A market without a single trade gets no cursor row yet: an idle platform's job writes nothing.
  if (
    !(await repo.hasCursor(tx, input.symbol)) &&
    (await deps.fees.after(tx, { symbol: input.symbol, after: null, limit: 1 })).length === 0
  )
    return { paid: 0, excluded: 0, read: 0 };
  const cursor = await repo.lockCursor(tx, input.symbol, now);
  const rows = await deps.fees.after(tx, { symbol: input.symbol, after: cursor, limit: input.limit });
  const result: JobResult = { paid: 0, excluded: 0, read: rows.length };
  const last = rows.at(-1);
  if (!last) return result;
  const linked = new Map<string, Linked>();
  // The market maker and active traders pay on many trades of a batch: one chain look-up each.
  const chains = new Map<string, string[]>();
  for (const row of rows) {
    for (const [payer, feeUnits] of feesByPayer(row)) {
      if (input.depth === 0 || feeUnits === 0n) continue;
      let inviters = chains.get(payer);
      if (!inviters) {
        inviters = await deps.invitations.chain(tx, payer, input.depth);
        chains.set(payer, inviters);
      }
      const lines = referralIncome({ feeUnits, inviters, sharesBps: input.sharesBps, depth: input.depth });
      for (const line of lines) {
        if (line.amountUnits === 0n) continue;
        const pair = { inviter: line.inviter, invitee: payer };
        const key = `${pair.inviter}|${pair.invitee}`;
        let link = linked.get(key);
        if (!link) {
          link = await checkLinked(deps, tx, pair, now);
          linked.set(key, link);
        }
        await writeLine(deps, tx, { row, pair, line, feeUnits, excluded: link.excluded, now });
        if (link.excluded) result.excluded++;
        else result.paid++;
      }
    }
  }
  await repo.advanceCursor(tx, input.symbol, { seq: last.seq, engineTradeId: last.engine_trade_id }, now);
  return result;
}

/** Each customer's fee on a trade (one customer on both sides pays both fees once, as one). */
function feesByPayer(row: FeePaidRow): Map<string, bigint> {
  const fees = new Map<string, bigint>();
  fees.set(row.taker_customer_id, BigInt(row.taker_fee_units));
  fees.set(row.maker_customer_id, (fees.get(row.maker_customer_id) ?? 0n) + BigInt(row.maker_fee_units));
  return fees;
}

async function writeLine(
  deps: ReferralDeps,
  tx: Tx,
  input: {
    row: FeePaidRow;
    pair: Pair;
    line: { level: number; shareBps: number; amountUnits: bigint };
    feeUnits: bigint;
    excluded: ReferralFlagReason | null;
    now: Date;
  },
): Promise<void> {
  const { row, pair, line, now } = input;
  const id = newId('rfi', now.getTime());
  let entryId: string | null = null;
  if (!input.excluded) {
    const entry = await deps.ledger.post(tx, {
      reason: 'reward.referral',
      reference: { type: 'referral_income', id },
      idempotencyKey: `referral:${row.trade_id}:${pair.invitee}:${line.level}`,
      memo: `level ${line.level}: ${line.shareBps} bps of the fee on spot trade ${row.trade_id}`,
      postings: [
        {
          account: { book: 'real', platform: row.fee_account },
          currency: row.currency,
          amountUnits: -line.amountUnits,
        },
        {
          account: { book: 'real', customerId: pair.inviter, accountType: 'spot' },
          currency: row.currency,
          amountUnits: line.amountUnits,
        },
      ],
    });
    // A replayed key means this line was already paid in a committed batch the cursor passed: a bug.
    if (entry.replayed) throw new Error(`referral income for ${row.trade_id} level ${line.level} paid twice`);
    entryId = entry.id;
  }
  await repo.insertIncome(tx, {
    id,
    inviter_id: pair.inviter,
    invitee_id: pair.invitee,
    level: line.level,
    status: input.excluded ? 'excluded' : 'paid',
    excluded_reason: input.excluded,
    source: 'spot_trade',
    source_id: row.trade_id,
    fee_entry_id: row.entry_id,
    fee_currency: row.currency,
    fee_units: input.feeUnits.toString(),
    share_bps: line.shareBps,
    amount_units: line.amountUnits.toString(),
    income_entry_id: entryId,
    created_at: now,
  });
}

/**
 * Whether a pair's income is excluded: an uncleared flag, or a link found now (self-referral, a
 * shared device, shared payout details) that staff have not cleared before — which is flagged here.
 * A cleared reason is not raised again for the same pair (staff looked at it); a new reason is.
 */
async function checkLinked(deps: ReferralDeps, tx: Tx, pair: Pair, now: Date): Promise<Linked> {
  const flags = await repo.flagsOfPair(tx, pair.inviter, pair.invitee);
  const open = flags.find((f) => f.cleared_at === null);
  if (open) return { excluded: open.reason };
  const known = new Set(flags.map((f) => f.reason));
  const found: [ReferralFlagReason, () => Promise<string | null>][] = [
    ['self', async () => (pair.inviter === pair.invitee ? 'the inviter is the invitee' : null)],
    ['same_device', () => deps.linked.device(tx, pair.inviter, pair.invitee)],
    ['same_payout', () => deps.linked.payout(tx, pair.inviter, pair.invitee)],
  ];
  for (const [reason, check] of found) {
    if (known.has(reason)) continue;
    const detail = await check();
    if (!detail) continue;
    await repo.insertFlag(tx, {
      id: newId('rff', now.getTime()),
      inviter_id: pair.inviter,
      invitee_id: pair.invitee,
      reason,
      detail,
      flagged_at: now,
      cleared_at: null,
      cleared_by: null,
      clear_reason: null,
    });
    deps.log.info({ inviter: pair.inviter, invitee: pair.invitee, reason }, 'referral pair flagged');
    return { excluded: reason };
  }
  return { excluded: null };
}

export function scheduleReferralJob(deps: ReferralDeps, intervalMs: number): JobSchedule {
  return scheduleJob({
    run: async () => {
      const r = await runReferralJob(deps);
      return r.paid + r.excluded;
    },
    what: 'referral job',
    log: deps.log,
    intervalMs,
  });
}
