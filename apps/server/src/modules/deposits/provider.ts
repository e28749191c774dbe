import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CustodyDepositEvent } from '@bourse/protocol';
import { sql } from 'kysely';
import { Value } from 'typebox/value';
import type { Db } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { SIGNATURE_HEADER, verifyWebhook } from '../../lib/webhook.ts';
import { CHAINS, type Chain, deriveDepositAddress, normalizeAddress, parseXpub } from './derive.ts';

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

  async function childIndex(customerId: string): Promise<number> {
    await deps.db
      .insertInto('deposits_key')
      .values({ customer_id: customerId, created_at: deps.clock.now() })
      .onConflict((oc) => oc.column('customer_id').doNothing())
      .execute();
    const row = await deps.db
      .selectFrom('deposits_key')
      .select('child_index')
      .where('customer_id', '=', customerId)
      .executeTakeFirstOrThrow();
    return row.child_index;
  }

  return {
    name: 'embedded-xpub',

    async depositAddress(customerId, chain) {
      const family = CHAINS[chain];
      const existing = await deps.db
        .selectFrom('deposits_address')
        .select('address')
        .where('customer_id', '=', customerId)
        .where('family', '=', family)
        .executeTakeFirst();
      if (existing) return existing.address;
      const index = await childIndex(customerId);
      const address = deriveDepositAddress(account, family, index);
      await deps.db
        .insertInto('deposits_address')
        .values({
          address_key: normalizeAddress(family, address),
          address,
          family,
          customer_id: customerId,
          child_index: index,
          created_at: deps.clock.now(),
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return address;
    },

    async ownerOf(chain, address) {
      const family = CHAINS[chain];
      const row = await deps.db
        .selectFrom('deposits_address')
        .select('customer_id')
        .where('family', '=', family)
        .where('address_key', '=', normalizeAddress(family, address))
        .executeTakeFirst();
      return row?.customer_id ?? null;
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

/** Kept for tests: the number of addresses handed out (one per customer and family). */
export async function addressCount(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from deposits_address`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
