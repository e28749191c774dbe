import type { RechargeAddressData, RechargeChannel } from '@bourse/protocol';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import { knownCurrency } from '../assets/index.ts';
import { channelData, type DepositsDeps, realOnly } from './context.ts';
import { isChain } from './derive.ts';
import { channelOf, cryptoChannelsOf, listChannels } from './repo.ts';

/** Deposit channels as customers see them, and the customer's deposit address on a chain. */

export async function channels(deps: Pick<DepositsDeps, 'db'>): Promise<RechargeChannel[]> {
  return (await listChannels(deps.db)).map(channelData);
}

/** For getCurrencyAll: the deposit networks of one currency. */
export async function chainsOf(deps: Pick<DepositsDeps, 'db'>, currency: string) {
  const rows = await cryptoChannelsOf(deps.db, currency);
  return rows.map((r) => {
    const c = channelData(r);
    return { chain: c.chain, open: c.open, min_amount: c.min_amount, confirmations: c.confirmations };
  });
}

/** The customer's deposit address for a currency on a chain; a closed channel refuses (spec 8). */
export async function address(
  deps: Pick<DepositsDeps, 'db' | 'provider' | 'requireFeature'>,
  auth: AuthContext,
  currency: string,
  chain: string,
): Promise<RechargeAddressData> {
  realOnly(auth);
  await deps.requireFeature(auth.customerId, 'deposit');
  knownCurrency(currency);
  const row = await channelOf(deps.db, currency, chain);
  if (row?.kind !== 'crypto' || !isChain(chain)) refuse('BAD_INPUT', { field: 'chain' });
  if (!row.open) refuse('RECHARGE_CHANNEL_CLOSED', { currency, chain });
  const address = await deps.provider.depositAddress(auth.customerId, chain);
  const c = channelData(row);
  return { currency, chain, address, min_amount: c.min_amount, confirmations: c.confirmations };
}
