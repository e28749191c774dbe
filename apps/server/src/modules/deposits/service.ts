import type { BankRechargeBody, CustodyDepositEvent } from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import type { StaffContext } from '../../http/staff.ts';
import { address, chainsOf, channels } from './addresses.ts';
import { bankRecharge } from './bank.ts';
import type { DepositsDeps } from './context.ts';
import { handleEvent } from './crediting.ts';
import { rechargeSource } from './records.ts';
import { confirmBank, proofLink, queue, rejectBank, releaseHeld, updateChannel } from './review.ts';

export { channelData, DEPOSIT_ACCOUNT_TYPE, type DepositsDeps } from './context.ts';

/**
 * The deposits service, wired from its parts: channels and addresses (addresses.ts), crypto
 * crediting from custody events (crediting.ts), bank deposits (bank.ts), the staff review
 * (review.ts) and the customer's records (records.ts). All SQL is in repo.ts.
 */
export function createDeposits(deps: DepositsDeps) {
  return {
    rechargeSource,
    channels: () => channels(deps),
    /** For getCurrencyAll: the deposit networks of one currency. */
    chainsOf: (currency: string) => chainsOf(deps, currency),
    address: (auth: AuthContext, currency: string, chain: string) => address(deps, auth, currency, chain),
    bankRecharge: (auth: AuthContext, body: BankRechargeBody) => bankRecharge(deps, auth, body),
    handleEvent: (event: CustodyDepositEvent) => handleEvent(deps, event),
    // ---- Staff side (routes under /api/admin check the permission; each action is audited) ----
    queue: (input: { status?: 'open' | 'all' } = {}) => queue(deps, input),
    proofLink: (staff: StaffContext, id: string) => proofLink(deps, staff, id),
    confirmBank: (staff: StaffContext, id: string, reason: string) => confirmBank(deps, staff, id, reason),
    rejectBank: (staff: StaffContext, id: string, reason: string) => rejectBank(deps, staff, id, reason),
    releaseHeld: (staff: StaffContext, id: string, reason: string) => releaseHeld(deps, staff, id, reason),
    updateChannel: (staff: StaffContext, input: Parameters<typeof updateChannel>[2]) =>
      updateChannel(deps, staff, input),
  };
}

export type Deposits = ReturnType<typeof createDeposits>;
