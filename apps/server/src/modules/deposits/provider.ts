import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CustodyDepositEvent } from '@bourse/protocol';
import { Value } from 'typebox/value';
import type { Db } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { SIGNATURE_HEADER, verifyWebhook } from '../../lib/webhook.ts';
import { CHAINS, type Chain, deriveDepositAddress, normalizeAddress, parseXpub } from './derive.ts';
import { addressOf, childIndexOf, insertAddressIfMissing, ownerOfAddress } from './repo.ts';

/**
 * The deposit side of a custody provider. The platform never holds keys: a provider hands out
 * deposit addresses and reports what arrived on them. The embedded provider derives addresses from
 * an extended public key and takes signed webhooks; another provider (a custodian's API) would
 * implement the same two calls.
 */
export type CustodyProvider = {
  readonly name: string;
  /** The customer's deposit address on `chain`: the same every time it is asked. */
  depositAddress(customerId: string, chain: Chain): Promise<string>;
  /** Who owns an address the provider reported (null: not one of ours). */
  ownerOf(chain: Chain, address: string): Promise<string | null>;
  /** Checks the signature over the raw body and parses one deposit event; refuses anything else. */
  parseWebhook(rawBody: string, headers: Record<string, string | string[] | undefined>): CustodyDepositEvent;
};

/** CUSTODY_WEBHOOK_SECRET, else one generated once into the data directory and kept (like SECRET). */
export function loadCustodySecret(input: { configured: string | null; dataDir: string }): string {
  if (input.configured) return input.configured;
  const file = path.join(input.dataDir, 'custody-webhook-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(input.dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as { code?: string }).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
  return secret;
}

export function createEmbeddedProvider(deps: {
  db: Db;
  clock: Clock;
  xpub: string;
  /** Resolved on first use, so a server that never takes a webhook never writes a secret file. */
  webhookSecret: () => string;
}): CustodyProvider {
  const account = parseXpub(deps.xpub);

  return {
    name: 'embedded-xpub',

    async depositAddress(customerId, chain) {
      const family = CHAINS[chain];
      const existing = await addressOf(deps.db, customerId, family);
      if (existing) return existing;
      const index = await childIndexOf(deps.db, customerId, deps.clock.now());
      const address = deriveDepositAddress(account, family, index);
      await insertAddressIfMissing(deps.db, {
        address_key: normalizeAddress(family, address),
        address,
        family,
        customer_id: customerId,
        child_index: index,
        created_at: deps.clock.now(),
      });
      return address;
    },

    async ownerOf(chain, address) {
      const family = CHAINS[chain];
      return ownerOfAddress(deps.db, family, normalizeAddress(family, address));
    },

    parseWebhook(rawBody, headers) {
      const header = headers[SIGNATURE_HEADER];
      const check = verifyWebhook(
        deps.webhookSecret(),
        rawBody,
        Array.isArray(header) ? header[0] : header,
        deps.clock.now().getTime(),
      );
      if (!check.ok) refuse('WEBHOOK_SIGNATURE_INVALID');
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawBody);
      } catch {
        refuse('MALFORMED_BODY');
      }
      if (!Value.Check(CustodyDepositEvent, parsed)) {
        const first = [...Value.Errors(CustodyDepositEvent, parsed)][0] as
          | { instancePath?: string }
          | undefined;
        const field = first?.instancePath?.replace(/^\//, '') || 'body';
        refuse('BAD_INPUT', { field });
      }
      return parsed as CustodyDepositEvent;
    },
  };
}
