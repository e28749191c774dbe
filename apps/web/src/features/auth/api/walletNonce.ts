import type { WalletNonceData } from '@bourse/protocol';
import { apiGet } from '../../../lib/api.ts';

/** `GET web/walletNonce`: the one-time nonce and fields of the EIP-4361 message to sign. */
export function fetchWalletNonce(address: string): Promise<WalletNonceData> {
  return apiGet<WalletNonceData>('web/walletNonce', { address });
}
