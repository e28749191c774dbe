import type { Tx } from '../../db/database.ts';
import * as repo from './repo.ts';

/**
 * Where approved withdrawals go. A real custody provider broadcasts the transfer (or bank payment)
 * and later reports the result through the signed webhook `POST /api/custody/withdrawals/webhook`.
 * `send` runs inside the approval's transaction: a refusal or error rolls the approval back.
 */
export type Payout = {
  withdrawalId: string;
  currency: string;
  chain: string;
  destinationLabel: string;
  memo: string;
  amountUnits: bigint;
};

export type PayoutProvider = {
  name: string;
  send(tx: Tx, payout: Payout, now: Date): Promise<{ providerRef: string }>;
};

/**
 * The embedded provider: records the broadcast (table `withdrawals_payout`) and nothing leaves the
 * machine; the operator (or a test) confirms or fails it through the signed webhook.
 */
export const embeddedPayoutProvider: PayoutProvider = {
  name: 'embedded',
  async send(tx, payout, now) {
    const providerRef = `emb_${payout.withdrawalId}`;
    await repo.insertPayout(tx, {
      id: providerRef,
      withdrawal_id: payout.withdrawalId,
      chain: payout.chain,
      destination_label: payout.destinationLabel,
      amount: payout.amountUnits.toString(),
      currency: payout.currency,
      created_at: now,
    });
    return { providerRef };
  },
};
