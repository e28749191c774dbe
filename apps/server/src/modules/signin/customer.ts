import type { SigninClaimData, SigninInfoData, SigninMeData } from '@bourse/protocol';
import { SIGNIN_LIMITS } from '@bourse/protocol';
import { currentStreak, customerDay, nextDayBoundary, nextStreak, type SignedDay } from '@bourse/risk';
import { sql } from 'kysely';
import { inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { expectRefusal, refuse } from '../../http/refusal.ts';
import type { Book } from '../ledger/index.ts';
import { amountText, BUDGET, budgetAccount, type Programme, programme, type SigninDeps } from './context.ts';
import * as repo from './repo.ts';

/**
 * The customer's side (README.md, "Signing in"): the programme as data, open without login, and
 * today's sign-in — once per customer and customer-day: the claim row's primary key and the ledger
 * key `signin:<customer>:<day>` commit in one transaction with the entry that pays it.
 */

function lastOf(row: repo.ClaimRow | undefined): SignedDay | null {
  return row ? { day: row.day, streak: row.streak } : null;
}

async function meOf(deps: SigninDeps, p: Programme, auth: AuthContext, today: string): Promise<SigninMeData> {
  const last = lastOf(await repo.lastClaim(deps.db, auth.customerId));
  const day = nextStreak(last, today);
  const verified =
    auth.isDemo || p.settings.verification === 'none' || (await deps.primaryVerified(auth.customerId));
  return {
    streak: currentStreak(last, today),
    signed_today: last?.day === today,
    today_streak_day: day,
    today_amount:
      day === null ? null : amountText(p.settings.amountUnits[day - 1] ?? 0n, p.settings.currency),
    last_day: last?.day ?? null,
    book: auth.isDemo ? 'demo' : 'real',
    verified,
  };
}

export async function info(deps: SigninDeps, auth: AuthContext | null): Promise<SigninInfoData> {
  const p = await programme(deps);
  const now = deps.clock.now().getTime();
  const { settings: s } = p;
  const today = customerDay(now, s.timeZone);
  return {
    state: p.state,
    time_zone: s.timeZone,
    currency: s.currency,
    amounts: s.amountUnits.map((u) => amountText(u, s.currency)),
    verification: s.verification,
    condition: s.condition,
    budget_remaining: amountText(p.budgetUnits, s.currency),
    cycle_days: SIGNIN_LIMITS.cycleDays,
    now,
    today,
    next_boundary_at: nextDayBoundary(now, s.timeZone),
    me: auth ? await meOf(deps, p, auth, today) : null,
  };
}

/** One customer's claims run one at a time (a transaction-scoped advisory lock on the customer). */
async function lockCustomer(tx: Tx, customerId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`signin:${customerId}`}, 0))`.execute(tx);
}

/** The demo twin of the budget is virtual money: topped up from the faucet by the sign-in that needs it. */
async function fundDemoTwin(
  deps: SigninDeps,
  tx: Tx,
  input: { key: string; units: bigint; currency: string },
) {
  await deps.ledger.post(tx, {
    reason: 'signin.demo_fund',
    reference: { type: 'signin', id: input.key },
    idempotencyKey: `signin:demo-fund:${input.key}`,
    postings: [
      {
        account: { book: 'demo', platform: 'demo_faucet' },
        currency: input.currency,
        amountUnits: -input.units,
      },
      { account: budgetAccount('demo'), currency: input.currency, amountUnits: input.units },
    ],
  });
}

async function pay(
  deps: SigninDeps,
  tx: Tx,
  input: { customerId: string; book: Book; day: string; streak: number; units: bigint; currency: string },
) {
  const key = `${input.customerId}:${input.day}`;
  if (input.book === 'demo')
    await fundDemoTwin(deps, tx, { key, units: input.units, currency: input.currency });
  try {
    return await deps.ledger.post(tx, {
      reason: 'reward.signin',
      reference: { type: 'signin', id: key },
      idempotencyKey: `signin:${key}`,
      memo: `sign-in day ${input.streak} of ${SIGNIN_LIMITS.cycleDays}`,
      postings: [
        { account: budgetAccount(input.book), currency: input.currency, amountUnits: -input.units },
        {
          account: { book: input.book, customerId: input.customerId, accountType: 'spot' },
          currency: input.currency,
          amountUnits: input.units,
        },
      ],
    });
  } catch (error) {
    // Only the budget can be short here (the customer is credited): the budget is never negative.
    expectRefusal(error, 'INSUFFICIENT_BALANCE');
    refuse('SIGNIN_BUDGET_EMPTY', {
      amount: amountText(input.units, input.currency),
      currency: input.currency,
    });
  }
}

export async function claim(deps: SigninDeps, auth: AuthContext): Promise<SigninClaimData> {
  const at = deps.clock.now();
  const book: Book = auth.isDemo ? 'demo' : 'real';
  return inTransaction(deps.db, async (tx) => {
    await lockCustomer(tx, auth.customerId);
    const p = await programme(deps, tx);
    const s = p.settings;
    if (p.state === 'off') refuse('SIGNIN_OFF');
    if (p.state === 'profile_forbids') refuse('SIGNIN_PROFILE_FORBIDS');
    const day = customerDay(at.getTime(), s.timeZone);
    const streak = nextStreak(lastOf(await repo.lastClaim(tx, auth.customerId)), day);
    if (streak === null) refuse('SIGNIN_ALREADY_TODAY', { day });
    if (book === 'real' && s.verification === 'primary' && !(await deps.primaryVerified(auth.customerId)))
      refuse('SIGNIN_VERIFICATION_REQUIRED');
    const units = s.amountUnits[streak - 1] as bigint;
    const entry = await pay(deps, tx, {
      customerId: auth.customerId,
      book,
      day,
      streak,
      units,
      currency: s.currency,
    });
    // A replayed key means today's claim committed before (the lock makes this a belt and braces).
    if (
      entry.replayed ||
      !(await repo.insertClaim(tx, {
        customer_id: auth.customerId,
        day,
        streak,
        amount_units: units.toString(),
        currency: s.currency,
        book,
        time_zone: s.timeZone,
        at,
        entry_id: entry.id,
      }))
    )
      refuse('SIGNIN_ALREADY_TODAY', { day });
    deps.log.debug({ customer: auth.customerId, day, streak, budget: BUDGET }, 'sign-in paid');
    return {
      day,
      streak,
      amount: amountText(units, s.currency),
      currency: s.currency,
      at: at.getTime(),
      next_boundary_at: nextDayBoundary(at.getTime(), s.timeZone),
    };
  });
}
