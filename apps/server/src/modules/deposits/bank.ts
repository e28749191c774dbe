import type { BankRechargeBody, BankRechargeData } from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { knownCurrency, parseAmount } from '../assets/index.ts';
import { channelData, type DepositsDeps, realOnly } from './context.ts';
import { channelOf, insertBankDeposit } from './repo.ts';

/**
 * Bank deposits, the customer's side: the deposit itself, pending until finance staff confirm or
 * reject it (review.ts). The remittance proof is an upload (`web/uploadDocument`, purpose
 * `deposit_proof`, modules/uploads) that the deposit claims through the `attach` port.
 */

type Deps = Pick<DepositsDeps, 'db' | 'clock' | 'requireFeature' | 'uploads' | 'documentRetainUntil'>;

/** A bank deposit: amount and remittance proof (used once, only by its owner); finance staff confirm or reject it. */
export async function bankRecharge(
  deps: Deps,
  auth: AuthContext,
  body: BankRechargeBody,
): Promise<BankRechargeData> {
  realOnly(auth);
  await deps.requireFeature(auth.customerId, 'deposit');
  const currency = knownCurrency(body.currency.trim());
  const row = await channelOf(deps.db, currency, 'BANK');
  if (!row) refuse('RECHARGE_CHANNEL_CLOSED', { currency, chain: 'BANK' });
  if (!row.open) refuse('RECHARGE_CHANNEL_CLOSED', { currency, chain: 'BANK' });
  const amountUnits = parseAmount('amount', body.amount, currency);
  if (amountUnits < BigInt(row.min_units)) {
    refuse('RECHARGE_BELOW_MINIMUM', { minimum: channelData(row).min_amount, currency });
  }
  const reference = body.reference.trim();
  if (reference === '') refuse('FIELD_REQUIRED', { field: 'reference' });
  const now = deps.clock.now();
  const retainUntil = await deps.documentRetainUntil(now);
  return inTransaction(deps.db, async (tx) => {
    const id = newId('bdp', now.getTime());
    // The customer's own unclaimed, undeleted proof upload, claimed once: anything else is NOT_FOUND.
    const proof = await deps.uploads.attach(tx, {
      fileId: body.proof_id,
      customerId: auth.customerId,
      purpose: 'deposit_proof',
      ref: `deposit:${id}`,
      retainUntil,
    });
    if (!proof) refuse('NOT_FOUND');
    await insertBankDeposit(tx, {
      id,
      customer_id: auth.customerId,
      currency,
      amount_units: amountUnits.toString(),
      reference,
      proof_id: proof.id,
      status: 'pending',
      created_at: now,
    });
    return { id, status: 1 as const };
  });
}
