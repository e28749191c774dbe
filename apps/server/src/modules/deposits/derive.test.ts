import { mnemonicToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  btcAddress,
  childPublicKey,
  DEMO_CUSTODY_XPUB,
  deriveDepositAddress,
  parseXpub,
  tronAddress,
  tronFromHex,
} from './derive.ts';

/** The BIP39 test mnemonic every wallet library publishes vectors for. */
const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
/**
 * Account 0 (m/84'/0'/0') of MNEMONIC, in xpub version bytes (derived once offline from the
 * mnemonic); the addresses it must give are the ones BIP84 itself prints for that account.
 */
const BIP84_ACCOUNT_XPUB =
  'xpub6CatWdiZiodmUeTDp8LT5or8nmbKNcuyvz7WyksVFkKB4RHwCD3XyuvPEbvqAQY3rAPshWcMLoP2fMFMKHPJ4ZeZXYVUhLv1VMrjPC7PW6V';

describe('deposit address derivation from an xpub', () => {
  it('BIP84 test vectors: first and second receive addresses', () => {
    const account = parseXpub(BIP84_ACCOUNT_XPUB);
    expect(deriveDepositAddress(account, 'btc', 0)).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(deriveDepositAddress(account, 'btc', 1)).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g');
  });

  it("BIP44 Ethereum: m/44'/60'/0'/0/i equals the published address and viem's own HD derivation", () => {
    const account = parseXpub(DEMO_CUSTODY_XPUB);
    expect(deriveDepositAddress(account, 'evm', 0)).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    for (const index of [0, 1, 2, 7, 1000]) {
      const expected = mnemonicToAccount(MNEMONIC, { addressIndex: index }).address;
      expect(deriveDepositAddress(account, 'evm', index)).toBe(expected);
    }
  });

  it('EIP-55 checksum: mixed case exactly as the standard gives it', () => {
    const address = deriveDepositAddress(parseXpub(DEMO_CUSTODY_XPUB), 'evm', 0);
    expect(address).not.toBe(address.toLowerCase());
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('Tron base58check: the documented hex/base58 pair, and the same key as the EVM address', () => {
    expect(tronFromHex('418840e6c55b9ada326d211d818c34a994aeced808')).toBe(
      'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    );
    const account = parseXpub(DEMO_CUSTODY_XPUB);
    const key = childPublicKey(account, 0);
    const tron = tronAddress(key);
    expect(tron).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(tronFromHex(`41${'9858EfFD232B4033E47d90003D41EC34EcaEda94'.toLowerCase()}`)).toBe(tron);
  });

  it('refuses a private extended key and out-of-range indexes', () => {
    expect(() =>
      parseXpub(
        'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
      ),
    ).toThrow();
    const account = parseXpub(DEMO_CUSTODY_XPUB);
    expect(() => childPublicKey(account, -1)).toThrow(RangeError);
    expect(() => childPublicKey(account, 2 ** 31)).toThrow(RangeError);
  });

  it('bech32 of a known public key (BIP173 example key)', () => {
    const key = Uint8Array.from(
      Buffer.from('0279BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798', 'hex'),
    );
    expect(btcAddress(key)).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');
  });
});
