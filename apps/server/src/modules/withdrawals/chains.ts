import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, bech32m, createBase58check } from '@scure/base';
import { getAddress, isAddress } from 'viem';

/**
 * Withdrawal networks and the address check of each. A saved address is stored in its canonical
 * form (EIP-55 checksum for Ethereum; as typed for Bitcoin base58, lower-case for bech32; as typed
 * for Tron), so two spellings of one address are one address.
 */
export const CHAINS = ['ERC20', 'TRC20', 'BTC'] as const;
export type Chain = (typeof CHAINS)[number];

/** Which networks carry which currency (what the address book accepts; the policy may narrow it). */
export const CURRENCY_CHAINS: Readonly<Record<string, readonly Chain[]>> = {
  USDT: ['ERC20', 'TRC20'],
  ETH: ['ERC20'],
  BTC: ['BTC'],
  TRX: ['TRC20'],
};

export function isChain(value: string): value is Chain {
  return (CHAINS as readonly string[]).includes(value);
}

const base58check = createBase58check(sha256);

function ethereum(input: string): string | null {
  // strict: a mixed-case address must carry a correct EIP-55 checksum; all-lower/upper has none.
  if (!/^0x[0-9a-fA-F]{40}$/.test(input)) return null;
  const hex = input.slice(2);
  const singleCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  if (!singleCase && !isAddress(input, { strict: true })) return null;
  return getAddress(`0x${hex.toLowerCase()}`);
}

function tron(input: string): string | null {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(input)) return null;
  try {
    const bytes = base58check.decode(input);
    return bytes.length === 21 && bytes[0] === 0x41 ? input : null;
  } catch {
    return null;
  }
}

/** Mainnet only: P2PKH (version 0x00, "1…"), P2SH (0x05, "3…"), segwit v0 bech32 and v1+ bech32m. */
function bitcoin(input: string): string | null {
  if (/^[13][1-9A-HJ-NP-Za-km-z]{24,34}$/.test(input)) {
    try {
      const bytes = base58check.decode(input);
      if (bytes.length !== 21) return null;
      return bytes[0] === 0x00 || bytes[0] === 0x05 ? input : null;
    } catch {
      return null;
    }
  }
  return segwit(input);
}

function segwit(input: string): string | null {
  // bech32 is single-case; mixed case is invalid by BIP-173.
  if (input !== input.toLowerCase() && input !== input.toUpperCase()) return null;
  const lower = input.toLowerCase();
  if (!lower.startsWith('bc1') || lower.length > 90) return null;
  const version = bech32.decodeUnsafe(lower as `${string}1${string}`, 90);
  const versionM = version ? undefined : bech32m.decodeUnsafe(lower as `${string}1${string}`, 90);
  const decoded = version ?? versionM;
  if (!decoded || decoded.prefix !== 'bc' || decoded.words.length < 1) return null;
  const witnessVersion = decoded.words[0] as number;
  if (witnessVersion > 16) return null;
  let program: Uint8Array;
  try {
    program = bech32.fromWords(decoded.words.slice(1));
  } catch {
    return null;
  }
  if (program.length < 2 || program.length > 40) return null;
  if (witnessVersion === 0) {
    // v0 uses bech32 and is 20 (P2WPKH) or 32 (P2WSH) bytes.
    if (!version || (program.length !== 20 && program.length !== 32)) return null;
  } else if (!versionM) {
    // v1+ (taproot …) must use bech32m (BIP-350).
    return null;
  }
  return lower;
}

const CHECKS: Readonly<Record<Chain, (input: string) => string | null>> = {
  ERC20: ethereum,
  TRC20: tron,
  BTC: bitcoin,
};

/** The canonical address, or null when it is not a valid address on that network. */
export function normalizeAddress(chain: Chain, input: string): string | null {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > 128) return null;
  return CHECKS[chain](trimmed);
}

/**
 * What a payout needs to know about each network: how many blocks confirm a transfer, how long a
 * block takes on the embedded simulated chain (short on purpose; PAYOUT_SIM_BLOCK_MS overrides it
 * for every network), how a transaction hash is written and where a customer looks it up.
 */
export type Network = {
  confirmations: number;
  simBlockMs: number;
  hashPrefix: '' | '0x';
  /** `{hash}` is replaced by the transaction hash. */
  explorerTx: string;
};

export const NETWORKS: Readonly<Record<Chain, Network>> = {
  ERC20: {
    confirmations: 12,
    simBlockMs: 1_000,
    hashPrefix: '0x',
    explorerTx: 'https://etherscan.io/tx/{hash}',
  },
  TRC20: {
    confirmations: 19,
    simBlockMs: 500,
    hashPrefix: '',
    explorerTx: 'https://tronscan.org/#/transaction/{hash}',
  },
  BTC: { confirmations: 6, simBlockMs: 2_000, hashPrefix: '', explorerTx: 'https://mempool.space/tx/{hash}' },
};

/** The explorer page of a transaction, or '' when the network has none (a bank payment). */
export function explorerUrl(chain: string, txHash: string | null): string {
  if (!txHash || !isChain(chain)) return '';
  return NETWORKS[chain].explorerTx.replace('{hash}', encodeURIComponent(txHash));
}
