import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Tx } from '../../db/database.ts';
import { isChain, NETWORKS } from './chains.ts';
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
  /** `txHash`: the transaction hash when the provider knows it at broadcast (a chain payout). */
  send(tx: Tx, payout: Payout, now: Date): Promise<{ providerRef: string; txHash: string | null }>;
};

/** The simulated transaction hash of a payout: sha256 of its id, hex, with the network's prefix. */
export function simulatedTxHash(chain: string, payoutId: string): string {
  const hex = bytesToHex(sha256(utf8ToBytes(payoutId)));
  return isChain(chain) ? `${NETWORKS[chain].hashPrefix}${hex}` : hex;
}

/**
 * The embedded provider, the default: nothing leaves the machine. It records the broadcast (table
 * `withdrawals_payout`) with a simulated transaction hash and the instant the simulated chain has
 * the network's block count on top of it (`confirmations × block time`; `blockMs` overrides every
 * network's simulated block time). The payout job (`payouts.ts`) confirms it then. A bank payout
 * has no chain: staff mark it paid or failed.
 */
export function createEmbeddedPayoutProvider(options: { blockMs?: number | null } = {}): PayoutProvider {
  return {
    name: 'embedded',
    async send(tx, payout, now) {
      const providerRef = `emb_${payout.withdrawalId}`;
      const chain = isChain(payout.chain) ? NETWORKS[payout.chain] : null;
      const txHash = chain ? simulatedTxHash(payout.chain, providerRef) : null;
      const confirmAt = chain
        ? new Date(now.getTime() + chain.confirmations * (options.blockMs ?? chain.simBlockMs))
        : null;
      await repo.insertPayout(tx, {
        id: providerRef,
        withdrawal_id: payout.withdrawalId,
        chain: payout.chain,
        destination_label: payout.destinationLabel,
        amount: payout.amountUnits.toString(),
        currency: payout.currency,
        created_at: now,
        status: 'broadcast',
        tx_hash: txHash,
        confirm_at: confirmAt,
        settled_at: null,
      });
      return { providerRef, txHash };
    },
  };
}

export const embeddedPayoutProvider: PayoutProvider = createEmbeddedPayoutProvider();
