import { sha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { normalizeAddress } from './chains.ts';

describe('Ethereum (ERC20) addresses', () => {
  // EIP-55's own test vectors.
  const eip55 = [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ];
  it('accepts checksummed addresses as they are', () => {
    for (const a of eip55) expect(normalizeAddress('ERC20', a)).toBe(a);
  });
  it('accepts single-case addresses and stores the checksummed form', () => {
    for (const a of eip55) {
      expect(normalizeAddress('ERC20', a.toLowerCase())).toBe(a);
      expect(normalizeAddress('ERC20', `0x${a.slice(2).toUpperCase()}`)).toBe(a);
    }
  });
  it('refuses a mixed-case address whose checksum is wrong', () => {
    expect(normalizeAddress('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBeNull();
    expect(normalizeAddress('ERC20', '0xfb6916095ca1df60bB79Ce92cE3Ea74c37c5d359')).toBeNull();
  });
  it('refuses wrong lengths and characters', () => {
    expect(normalizeAddress('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA')).toBeNull();
    expect(normalizeAddress('ERC20', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(normalizeAddress('ERC20', '0xZaAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(normalizeAddress('ERC20', '')).toBeNull();
  });
});

describe('Bitcoin addresses', () => {
  it('accepts base58check P2PKH and P2SH', () => {
    expect(normalizeAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
    );
    expect(normalizeAddress('BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
    );
  });
  it('refuses a base58 address with a broken checksum', () => {
    expect(normalizeAddress('BTC', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toBeNull();
    expect(normalizeAddress('BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz')).toBeNull();
  });
  it('accepts bech32 segwit v0 (BIP-173) and bech32m v1 (BIP-350/86)', () => {
    expect(normalizeAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    expect(normalizeAddress('BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    expect(
      normalizeAddress('BTC', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'),
    ).not.toBeNull();
    expect(
      normalizeAddress('BTC', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'),
    ).not.toBeNull();
  });
  it('refuses bad bech32: wrong checksum, v1 in bech32, mixed case, testnet, wrong v0 length', () => {
    expect(normalizeAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5')).toBeNull();
    // BIP-350 invalid vector: witness v1 encoded with bech32 instead of bech32m.
    expect(
      normalizeAddress('BTC', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'),
    ).toBeNull();
    expect(normalizeAddress('BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kV8f3t4')).toBeNull();
    expect(normalizeAddress('BTC', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBeNull();
    // BIP-173 invalid vector: v0 program of 16 bytes.
    expect(normalizeAddress('BTC', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P')).toBeNull();
  });
  it('refuses other networks addresses', () => {
    expect(normalizeAddress('BTC', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBeNull();
    expect(normalizeAddress('BTC', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBeNull();
  });
});

describe('Tron (TRC20) addresses', () => {
  it('accepts base58check addresses with version 0x41', () => {
    expect(normalizeAddress('TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    expect(normalizeAddress('TRC20', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7')).toBe(
      'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
    );
  });
  it('refuses a broken checksum, another version byte and other networks', () => {
    expect(normalizeAddress('TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBeNull();
    const b58 = createBase58check(sha256);
    const wrongVersion = b58.encode(new Uint8Array([0x42, ...new Uint8Array(20).fill(7)]));
    expect(normalizeAddress('TRC20', wrongVersion)).toBeNull();
    const good = b58.encode(new Uint8Array([0x41, ...new Uint8Array(20).fill(7)]));
    expect(good.startsWith('T')).toBe(true);
    expect(normalizeAddress('TRC20', good)).toBe(good);
    expect(normalizeAddress('TRC20', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBeNull();
  });
});
