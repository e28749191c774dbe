import { createHash } from 'node:crypto';
import {
  ASSET_LIMITS,
  type BankRechargeBody,
  type BankRechargeData,
  type UploadProofData,
} from '@bourse/protocol';
import { inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { newId } from '../../lib/ids.ts';
import { knownCurrency, parseAmount } from '../assets/index.ts';
import { channelData, type DepositsDeps, realOnly } from './context.ts';
import { channelOf, insertBankDeposit, insertProof, lockOwnProof, proofUsed } from './repo.ts';

/**
 * Bank deposits, the customer's side: the remittance proof (stored in PostgreSQL) and the deposit
 * itself, pending until finance staff confirm or reject it (review.ts).
 */

type Deps = Pick<DepositsDeps, 'db' | 'clock' | 'requireFeature'>;

/** What an uploaded file really is, by its first bytes (never by its name or declared type). */
export function sniffImage(bytes: Uint8Array): 'image/png' | 'image/jpeg' | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/** Stores a remittance proof image (JPG/PNG by content, ≤ 8 MB) in PostgreSQL. */
export async function uploadProof(deps: Deps, auth: AuthContext, bytes: Buffer): Promise<UploadProofData> {
  realOnly(auth);
  if (bytes.length > ASSET_LIMITS.proofBytesMax)
    refuse('UPLOAD_TOO_LARGE', { maxBytes: ASSET_LIMITS.proofBytesMax });
  const mime = sniffImage(bytes);
  if (!mime || bytes.length === 0) refuse('UPLOAD_TYPE_INVALID');
  const id = newId('prf', deps.clock.now().getTime());
  await insertProof(deps.db, {
    id,
    customer_id: auth.customerId,
    mime,
    bytes,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    created_at: deps.clock.now(),
  });
  return { proof_id: id, bytes: bytes.length, type: mime };
}

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
  return inTransaction(deps.db, async (tx) => {
    const proof = await lockOwnProof(tx, body.proof_id, auth.customerId);
    if (!proof) refuse('NOT_FOUND');
    if (await proofUsed(tx, proof.id)) refuse('NOT_FOUND');
    const id = newId('bdp', deps.clock.now().getTime());
    await insertBankDeposit(tx, {
      id,
      customer_id: auth.customerId,
      currency,
      amount_units: amountUnits.toString(),
      reference,
      proof_id: proof.id,
      status: 'pending',
      created_at: deps.clock.now(),
    });
    return { id, status: 1 as const };
  });
}
