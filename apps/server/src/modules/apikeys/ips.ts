import { BlockList, isIP } from 'node:net';
import { APIKEY_LIMITS } from '@bourse/protocol';
import { refuse } from '../../http/refusal.ts';

/**
 * The IP allow-list of a key: IPv4 and IPv6 addresses and CIDR ranges (`10.0.0.0/8`, `2001:db8::/32`),
 * validated and normalised when the key is created; checked with node's BlockList on every call.
 */

type Entry = { family: 'ipv4' | 'ipv6'; address: string; prefix: number | null };

/** An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack socket reports) as the IPv4 it is. */
export function plainIp(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped?.[1] ?? ip;
}

function parseEntry(raw: string): Entry | null {
  const [address = '', prefixText, extra] = raw.split('/');
  // A zone (`fe80::1%eth0`) names an interface of this machine, never a caller's address.
  if (extra !== undefined || address.includes('%')) return null;
  const family = isIP(address);
  if (family === 0) return null;
  const max = family === 4 ? 32 : 128;
  let prefix: number | null = null;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > max) return null;
  }
  return { family: family === 4 ? 'ipv4' : 'ipv6', address: address.toLowerCase(), prefix };
}

/** The allow-list as typed (commas, spaces, new lines) → normalised entries, or a refusal naming the bad one. */
export function parseIps(text: string | undefined): string[] {
  const parts = (text ?? '')
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const out: string[] = [];
  for (const part of parts) {
    const entry = parseEntry(part);
    if (!entry) refuse('APIKEY_IP_INVALID', { value: part.slice(0, 60) });
    const text = entry.prefix === null ? entry.address : `${entry.address}/${entry.prefix}`;
    if (!out.includes(text)) out.push(text);
  }
  if (out.length > APIKEY_LIMITS.ipsMax) refuse('APIKEY_IPS_TOO_MANY', { max: APIKEY_LIMITS.ipsMax });
  return out;
}

/** Whether `ip` is allowed by the stored entries (none: any address). */
export function ipAllowed(entries: readonly string[], ip: string): boolean {
  if (entries.length === 0) return true;
  const list = new BlockList();
  for (const text of entries) {
    const e = parseEntry(text);
    if (!e) continue;
    if (e.prefix === null) list.addAddress(e.address, e.family);
    else list.addSubnet(e.address, e.prefix, e.family);
  }
  const plain = plainIp(ip);
  const family = isIP(plain);
  if (family === 0) return false;
  return list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}
