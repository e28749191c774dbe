import type { AdminInsuranceData, AdminInsuranceFundBody } from '@bourse/protocol';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import { parseAmount } from '../assets/index.ts';
import type { Ledger } from '../ledger/index.ts';
import { usdtText } from './math.ts';
import { lockKey } from './repo.ts';

/**
 * The insurance account in the back office: its balance and latest movements (through the ledger's
 * read functions), and paying capital into it (audited).
 */

/** Insurance movements the back office shows. */
const INSURANCE_MOVEMENTS_MAX = 50;

type InsuranceDeps = { db: Db; ledger: Ledger; audit: AuditLog };

export async function insurance(
  deps: Pick<InsuranceDeps, 'db' | 'ledger'>,
  book: 'real' | 'demo',
): Promise<AdminInsuranceData> {
  const balance = await insuranceBalance(deps.ledger, deps.db, book);
  const movements = await deps.ledger.platformMovements(deps.db, {
    book,
    platform: 'insurance',
    currency: 'USDT',
    limit: INSURANCE_MOVEMENTS_MAX,
  });
  return {
    book,
    currency: 'USDT',
    balance: usdtText(balance),
    movements: movements.map((m) => ({
      entry_id: m.entryId,
      reason: m.reason,
      amount: usdtText(m.amountUnits),
      reference: m.referenceId,
      created_at: m.createdAt.getTime(),
    })),
  };
}

/**
 * Pays capital into the insurance account once per (staff member, rtoken): the same rtoken again
 * with the same book and amount answers as the first call did (nothing posted twice); with another
 * book or amount it is refused (`BAD_INPUT {field: 'rtoken'}`), never a ledger error.
 */
export async function fundInsurance(
  deps: InsuranceDeps,
  staff: StaffContext,
  body: AdminInsuranceFundBody,
  requestId: string,
): Promise<AdminInsuranceData> {
  const amount = parseAmount('amount', body.amount, 'USDT');
  const key = `contracts:insurance:fund:${staff.staffId}:${requestId}`;
  await inTransaction(deps.db, async (tx) => {
    // Twins with one rtoken queue here; the second sees the first's entry.
    await lockKey(tx, key);
    if (await deps.ledger.entryIdByKey(tx, key))
      return sameFundingAgain(deps.ledger, tx, { key, body, amount });
    await postFunding(deps, tx, { staff, body, amount, key });
  });
  return insurance(deps, body.book);
}

/** A repeated rtoken: fine with the same amount (nothing posted), refused with another. */
async function sameFundingAgain(
  ledger: Ledger,
  tx: Tx,
  input: { key: string; body: AdminInsuranceFundBody; amount: bigint },
): Promise<void> {
  const [prior] = await ledger.platformMovements(tx, {
    book: input.body.book,
    platform: 'insurance',
    currency: 'USDT',
    limit: 1,
    idempotencyKey: input.key,
  });
  if (prior?.amountUnits === input.amount && prior.reason === 'contract.insurance.fund') return;
  refuse('BAD_INPUT', { field: 'rtoken' });
}

async function postFunding(
  deps: InsuranceDeps,
  tx: Tx,
  input: { staff: StaffContext; body: AdminInsuranceFundBody; amount: bigint; key: string },
): Promise<void> {
  const { staff, body, amount } = input;
  const before = await insuranceBalance(deps.ledger, tx, body.book);
  const entry = await deps.ledger.post(tx, {
    reason: 'contract.insurance.fund',
    reference: { type: 'staff', id: staff.staffId },
    idempotencyKey: input.key,
    actorId: staff.staffId,
    memo: body.reason,
    postings: [
      { account: { book: body.book, platform: 'insurance_capital' }, currency: 'USDT', amountUnits: -amount },
      { account: { book: body.book, platform: 'insurance' }, currency: 'USDT', amountUnits: amount },
    ],
  });
  await deps.audit.record(tx, {
    actorId: staff.staffId,
    action: 'contract.insurance.fund',
    targetType: 'insurance',
    targetId: body.book,
    before: { balance: usdtText(before) },
    after: { balance: usdtText(before + amount), entry_id: entry.id },
    reason: body.reason,
  });
}

async function insuranceBalance(ledger: Ledger, q: Db | Tx, book: 'real' | 'demo'): Promise<bigint> {
  const balances = await ledger.platformBalances(q, { book, platform: 'insurance' });
  return balances.find((b) => b.currency === 'USDT')?.availableUnits ?? 0n;
}
