import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { signWebhook } from '../apps/server/src/lib/webhook.ts';
import { baseUrl } from './browser.ts';

/**
 * The custody provider's side of the e2e setup. The e2e server runs without CUSTODY_WEBHOOK_SECRET,
 * so it keeps a generated secret in its data directory (`custody-webhook-secret`, mode 0600, never
 * overwritten). We find that directory by its PostgreSQL password (the one in pgUrl) and read the
 * secret, writing it first if the server has not yet.
 */
export function custodySecret(): string {
  const pgPassword = decodeURIComponent(new URL(inject('pgUrl')).password);
  const root = path.resolve(import.meta.dirname, '../.tmp');
  for (const dir of fs.readdirSync(root)) {
    const file = path.join(root, dir, 'pg-password');
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').trim() === pgPassword) {
      const secretFile = path.join(root, dir, 'custody-webhook-secret');
      try {
        fs.writeFileSync(secretFile, `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}-secret`, {
          mode: 0o600,
          flag: 'wx',
        });
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
      }
      return fs.readFileSync(secretFile, 'utf8').trim();
    }
  }
  throw new Error('the e2e data directory was not found');
}

// biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
export type CustodyAnswer = { status: number; code: number; msg: string; data: any; reason?: string };

/** Posts a custody webhook (`/api/custody/<pathname>`) signed with `secret`; the HTTP status and the answer. */
export async function postCustodyWebhook(
  pathname: string,
  body: object,
  secret: string,
): Promise<CustodyAnswer> {
  const raw = JSON.stringify(body);
  const response = await fetch(`${baseUrl()}/api/custody/${pathname}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-bourse-signature': signWebhook(secret, raw, Date.now()),
    },
    body: raw,
  });
  return { status: response.status, ...((await response.json()) as Omit<CustodyAnswer, 'status'>) };
}

/** A confirmed USDT deposit on ERC20 (64 confirmations) to `address`, as custody reports it. */
export function usdtDeposit(deposit: { address: string; amount: string; txid: string }): object {
  return {
    type: 'deposit',
    chain: 'ERC20',
    txid: deposit.txid,
    output_index: 0,
    address: deposit.address,
    currency: 'USDT',
    amount: deposit.amount,
    confirmations: 64,
    status: 'success',
  };
}
