import { useMutation } from '@tanstack/react-query';
import { getAddress, stringToHex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { postWalletLogin } from '../api/walletLogin.ts';
import { fetchWalletNonce } from '../api/walletNonce.ts';

/** The part of EIP-1193 the app uses. Bourse only asks for an address and a signature, nothing else. */
type Eip1193Provider = {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>;
};

/** The wallet a browser extension or wallet app injected, if any. */
export function injectedWallet(): Eip1193Provider | null {
  if (typeof window === 'undefined') return null;
  const candidate = (window as { ethereum?: unknown }).ethereum;
  if (typeof candidate !== 'object' || candidate === null) return null;
  return typeof (candidate as Eip1193Provider).request === 'function' ? (candidate as Eip1193Provider) : null;
}

/** Why a wallet login stopped before the server answered. */
export class WalletStop extends Error {
  readonly why: 'missing' | 'rejected' | 'noAddress' | 'failed';
  constructor(why: WalletStop['why'], cause?: unknown) {
    super(why, { cause });
    this.why = why;
  }
}

/** EIP-1193 code 4001: the customer said no in the wallet. */
function isUserRejection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 4001;
}

async function walletRequest(wallet: Eip1193Provider, method: string, params?: readonly unknown[]) {
  try {
    return await wallet.request(params ? { method, params } : { method });
  } catch (error) {
    throw new WalletStop(isUserRejection(error) ? 'rejected' : 'failed', error);
  }
}

/** Sign-In with Ethereum: address → server nonce → EIP-4361 message → personal_sign → login. */
async function signInWithWallet(): Promise<{ token: string; uid: string }> {
  const wallet = injectedWallet();
  if (!wallet) throw new WalletStop('missing');
  const accounts = await walletRequest(wallet, 'eth_requestAccounts');
  const first = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof first !== 'string') throw new WalletStop('noAddress');
  const address = getAddress(first);
  const nonce = await fetchWalletNonce(address);
  const message = createSiweMessage({
    domain: nonce.domain,
    address,
    statement: nonce.statement,
    uri: nonce.uri,
    version: nonce.version,
    chainId: nonce.chain_id,
    nonce: nonce.nonce,
    issuedAt: new Date(nonce.issued_at),
    expirationTime: new Date(nonce.expiration_time),
  });
  const signature = await walletRequest(wallet, 'personal_sign', [stringToHex(message), address]);
  if (typeof signature !== 'string') throw new WalletStop('failed');
  return postWalletLogin({ message, signature });
}

export function useWalletLogin() {
  return useMutation({ mutationFn: signInWithWallet });
}
