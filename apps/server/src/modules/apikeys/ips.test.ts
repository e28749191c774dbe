import { describe, expect, it } from 'vitest';
import { Refusal } from '../../http/refusal.ts';
import { ipAllowed, parseIps } from './ips.ts';
import { hmacHex, signatureMatches, signedPayload, withinWindow } from './signing.ts';

function refusal(fn: () => unknown): Refusal {
  try {
    fn();
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('IP allow-lists', () => {
  it('reads IPv4, IPv6 and CIDR entries separated by commas, spaces and new lines, normalised and deduplicated', () => {
    expect(parseIps(' 1.2.3.4, 10.0.0.0/8\n2001:DB8::/32  ::1,1.2.3.4 ')).toEqual([
      '1.2.3.4',
      '10.0.0.0/8',
      '2001:db8::/32',
      '::1',
    ]);
    expect(parseIps('')).toEqual([]);
    expect(parseIps(undefined)).toEqual([]);
  });

  it('refuses each malformed entry by name', () => {
    for (const bad of [
      '1.2.3',
      '256.1.1.1',
      '10.0.0.0/33',
      '::1/129',
      'abc',
      '1.2.3.4/8/1',
      '1.2.3.4/x',
      'fe80::1%eth0',
    ]) {
      const r = refusal(() => parseIps(`1.1.1.1, ${bad}`));
      expect(r.reason, bad).toBe('APIKEY_IP_INVALID');
      expect(r.params).toEqual({ value: bad });
    }
    const many = Array.from({ length: 31 }, (_, i) => `10.0.0.${i}`).join(',');
    expect(refusal(() => parseIps(many)).reason).toBe('APIKEY_IPS_TOO_MANY');
  });

  it('allows any address without entries, else only addresses inside an entry (IPv4-mapped IPv6 as IPv4)', () => {
    expect(ipAllowed([], '203.0.113.9')).toBe(true);
    const list = parseIps('10.0.0.0/8, 192.168.1.7, 2001:db8::/32');
    expect(ipAllowed(list, '10.200.3.4')).toBe(true);
    expect(ipAllowed(list, '::ffff:10.1.1.1')).toBe(true);
    expect(ipAllowed(list, '192.168.1.7')).toBe(true);
    expect(ipAllowed(list, '192.168.1.8')).toBe(false);
    expect(ipAllowed(list, '11.0.0.1')).toBe(false);
    expect(ipAllowed(list, '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(list, '2001:db9::5')).toBe(false);
    expect(ipAllowed(list, 'not-an-ip')).toBe(false);
  });
});

describe('Binance request signing', () => {
  it('signs the query then the body, without the signature parameter, wherever it is', () => {
    const secret = 'a'.repeat(64);
    const query = 'symbol=BTCUSDT&timestamp=1';
    const body = 'side=BUY&quantity=1';
    const sig = hmacHex(secret, query + body);
    expect(signedPayload(`${query}&signature=${sig}`, body)).toEqual({
      payload: query + body,
      signature: sig,
    });
    expect(signedPayload(query, `${body}&signature=${sig}`)).toEqual({
      payload: query + body,
      signature: sig,
    });
    expect(signatureMatches(secret, query + body, sig)).toBe(true);
    expect(signatureMatches(secret, query + body, sig.toUpperCase())).toBe(true);
    expect(signatureMatches(secret, `${query}0${body}`, sig)).toBe(false);
    expect(signatureMatches('b'.repeat(64), query + body, sig)).toBe(false);
    expect(signatureMatches(secret, query + body, 'zz')).toBe(false);
    expect(signedPayload('signature=%ZZ', '').signature).toBe(null);
  });

  it('accepts a timestamp within the window and at most 1 s ahead', () => {
    const now = 1_000_000;
    expect(withinWindow(now, 5000, now)).toBe(true);
    expect(withinWindow(now - 5000, 5000, now)).toBe(true);
    expect(withinWindow(now - 5001, 5000, now)).toBe(false);
    expect(withinWindow(now + 999, 5000, now)).toBe(true);
    expect(withinWindow(now + 1000, 5000, now)).toBe(false);
  });
});
