import type { LoginData, WalletLoginBody } from '@bourse/protocol';
import { apiPost } from '../../../lib/api.ts';

export type WalletLoginInput = Omit<WalletLoginBody, 'token' | 'lang' | 'rtoken'>;

/** `POST web/walletLogin`: the signed message logs in (and registers on first use). */
export function postWalletLogin(input: WalletLoginInput): Promise<LoginData> {
  return apiPost<LoginData>('web/walletLogin', input);
}
