import { secp256k1 } from '@noble/curves/secp256k1';
import { ripemd160 } from '@noble/hashes/legacy';
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { base58check, bech32 } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { getAddress } from 'viem';

/**
 * Deposit addresses from an extended PUBLIC key only: the server never holds a private key or a
 * seed. Each customer gets one non-hardened child index; their address on a chain family is the
 * public key at `<xpub>/0/<index>` (the BIP44/BIP84 "receive" branch under an account xpub),
 * encoded the chain's way. The custodian who holds the matching account private key can spend it.
 *
 * The development default is the account xpub m/44'/60'/0' of the published test mnemonic
 * "abandon abandon … about" (BIP39 test vector). Anyone can derive its private keys: it exists only
 * so a fresh install shows real-looking addresses. Production sets CUSTODY_XPUB.
 */
export const DEMO_CUSTODY_XPUB =
  'xpub6DCoCpSuQZB2jawqnGMEPS63ePKWkwWPH4TU45Q7LPXWuNd8TMtVxRrgjtEshuqpK3mdhaWHPFsBngh5GFZaM6si3yZdUsT8ddYM3PwnATt';

/** How a chain writes an address: EVM (ERC20/ETH), Bitcoin (bech32 P2WPKH), Tron (base58check). */
export const CHAIN_FAMILIES = ['evm', 'btc', 'tron'] as const;
export type ChainFamily = (typeof CHAIN_FAMILIES)[number];

/** The chains a deposit channel can name, and their address family. */
export const CHAINS = { ERC20: 'evm', BTC: 'btc', TRC20: 'tron' } as const satisfies Record<
  string,
  ChainFamily
>;
export type Chain = keyof typeof CHAINS;
export function isChain(value: string): value is Chain {
  return Object.hasOwn(CHAINS, value);
}

/** Largest non-hardened index (2^31 − 1). */
export const CHILD_INDEX_MAX = 0x7fff_ffff;

const tronBase58 = base58check(sha256);

export function parseXpub(xpub: string): HDKey {
  // Accept xpub (BIP44) and zpub (BIP84) version bytes: only the key and chain code matter here.
  const versions = xpub.startsWith('zpub')
    ? { private: 0x04b2430c, public: 0x04b24746 }
    : { private: 0x0488ade4, public: 0x0488b21e };
  const key = HDKey.fromExtendedKey(xpub, versions);
  if (key.privateKey) throw new Error('CUSTODY_XPUB must be an extended PUBLIC key, never a private one');
  return key;
}

/** The compressed public key at <account>/0/<index> (non-hardened: derivable from the xpub). */
export function childPublicKey(account: HDKey, index: number): Uint8Array {
  if (!Number.isSafeInteger(index) || index < 0 || index > CHILD_INDEX_MAX) {
    throw new RangeError(`child index out of range: ${index}`);
  }
  const child = account.deriveChild(0).deriveChild(index);
  if (!child.publicKey) throw new Error('derivation produced no public key');
  return child.publicKey;
}

/** Last 20 bytes of keccak256 of the uncompressed public key without its 0x04 prefix. */
function evmAddressBytes(compressed: Uint8Array): Uint8Array {
  const uncompressed = secp256k1.ProjectivePoint.fromHex(compressed).toRawBytes(false);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function evmAddress(compressed: Uint8Array): string {
  return getAddress(`0x${toHex(evmAddressBytes(compressed))}`);
}

/** Tron: base58check of 0x41 followed by the same 20 bytes as the EVM address. */
export function tronAddress(compressed: Uint8Array): string {
  const payload = new Uint8Array(21);
  payload[0] = 0x41;
  payload.set(evmAddressBytes(compressed), 1);
  return tronBase58.encode(payload);
}

/** Tron hex (41…) to base58check, for checking the encoding against published pairs. */
export function tronFromHex(hex41: string): string {
  return tronBase58.encode(Uint8Array.from(Buffer.from(hex41, 'hex')));
}

/** Native SegWit v0 P2WPKH: bech32("bc", [0, words(ripemd160(sha256(pubkey)))]). */
export function btcAddress(compressed: Uint8Array, hrp = 'bc'): string {
  const program = ripemd160(sha256(compressed));
  return bech32.encode(hrp, [0, ...bech32.toWords(program)]);
}

export function addressFor(family: ChainFamily, compressed: Uint8Array): string {
  switch (family) {
    case 'evm':
      return evmAddress(compressed);
    case 'btc':
      return btcAddress(compressed);
    case 'tron':
      return tronAddress(compressed);
  }
}

/** The deposit address of child `index` on `family`, from the configured account xpub. */
export function deriveDepositAddress(xpub: HDKey, family: ChainFamily, index: number): string {
  return addressFor(family, childPublicKey(xpub, index));
}

/** The one comparable form of an address (EVM addresses compare case-insensitively). */
export function normalizeAddress(family: ChainFamily, address: string): string {
  return family === 'evm' ? address.toLowerCase() : address;
}
