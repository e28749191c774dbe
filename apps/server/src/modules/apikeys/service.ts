import { randomBytes } from 'node:crypto';
import { translate } from '@bourse/i18n';
import {
  APIKEY_LIMITS,
  type ApiKeyCreatedData,
  type ApiKeyData,
  type ApiKeyPermission,
  type ApiKeysData,
  type CreateApiKeyBody,
  isLang,
} from '@bourse/protocol';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import { type Db, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog, StaffContext } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { coalesce, POOL_LANES } from '../../lib/coalesce.ts';
import { newId } from '../../lib/ids.ts';
import type { Notifier } from '../notify/index.ts';
import type { DocumentCipher } from '../uploads/index.ts';
import { ipAllowed, parseIps, plainIp } from './ips.ts';
import * as repo from './repo.ts';
import { SIGNING, signatureMatches, signedPayload, withinWindow } from './signing.ts';

const DAY_MS = 86_400_000;
// Control (Cc), format (Cf), line / paragraph separators, private-use and unassigned code points.
const LABEL_FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

export type ApiKeysDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  audit: AuditLog;
  notifier: Notifier;
  /** Seals the HMAC secrets (the uploads module's AES-256-GCM cipher on DOCUMENT_KEY). */
  cipher: DocumentCipher;
  /** Step-up for creating a key: the trade password, and the Google code when enabled (withdrawals' checks). */
  /**
   * The trade password (and the Google code when enabled). The code's step is recorded in `tx`, the
   * creation's own transaction, so it commits with the key and the request's claim or not at all.
   */
  stepUp(customerId: string, tradePassword: string, googleCode: string | undefined, tx: Tx): Promise<void>;
  contactOf(
    customerId: string,
  ): Promise<{ email: string | null; phone: string | null; language: string } | null>;
  securityEvent(
    q: Db | Tx,
    input: { customerId: string; kind: string; detail: string; ip: string; at: Date },
  ): Promise<void>;
  customerActive(customerId: string): Promise<boolean>;
};

/** Who a signed or keyed bot call acts for. */
export type KeyPrincipal = Readonly<{
  keyId: string;
  customerId: string;
  permission: ApiKeyPermission;
}>;

/** A bot call as the API sees it: the key header, the caller's address and the raw query and body. */
export type KeyedRequest = {
  apiKey: string | undefined;
  ip: string;
  /** Raw query string (after `?`), as sent. */
  query: string;
  /** Raw form body, as sent ('' when none). */
  body: string;
  /** The parsed `timestamp` and `recvWindow` fields (query and body merged). */
  timestamp: string | undefined;
  recvWindow: string | undefined;
};

export function stateOf(row: repo.ApiKeyRow, now: Date): 'active' | 'expired' | 'revoked' {
  if (row.revoked_at) return 'revoked';
  return row.expires_at <= now ? 'expired' : 'active';
}

export function keyData(row: repo.ApiKeyRow, now: Date): ApiKeyData {
  return {
    id: row.id,
    label: row.label,
    api_key: row.api_key,
    permission: row.permission as ApiKeyPermission,
    ips: row.ips === '' ? [] : row.ips.split(','),
    state: stateOf(row, now),
    created_at: row.created_at.getTime(),
    expires_at: row.expires_at.getTime(),
    last_used_at: row.last_used_at?.getTime() ?? null,
    revoked_at: row.revoked_at?.getTime() ?? null,
    revoked_by: (row.revoked_by as 'customer' | 'staff' | null) ?? null,
    revoke_reason: row.revoke_reason,
  };
}

function labelOf(raw: string): string {
  const label = raw.normalize('NFKC').trim().replace(/\s+/gu, ' ');
  const { labelMin: min, labelMax: max } = APIKEY_LIMITS;
  const length = [...label].length;
  if (LABEL_FORBIDDEN.test(label) || length < min || length > max)
    refuse('APIKEY_LABEL_INVALID', { min, max });
  return label;
}

function expiryDaysOf(raw: string | undefined): number {
  const { expiryDaysMin: min, expiryDaysMax: max, expiryDaysDefault } = APIKEY_LIMITS;
  if (raw === undefined || raw === '') return expiryDaysDefault;
  const days = Number(raw);
  if (!Number.isInteger(days) || days < min || days > max) refuse('APIKEY_EXPIRY_INVALID', { min, max });
  return days;
}

/** Keys whose last write of `last_used_at` this process remembers (then it forgets them all). */
const TOUCHED_KEPT = 100_000;

export function createApiKeys(deps: ApiKeysDeps) {
  const { db, clock } = deps;
  const aad = (id: string) => `apikey|${id}`;

  async function tell(customerId: string, key: string, params: Record<string, string>): Promise<void> {
    try {
      const contact = await deps.contactOf(customerId);
      const recipient = contact?.email ?? contact?.phone;
      if (!contact || !recipient) return;
      const lang = isLang(contact.language) ? contact.language : 'en';
      const permission = params.permission
        ? translate(
            lang,
            `message.apiKey.${params.permission === 'trade' ? 'permissionTrade' : 'permissionRead'}`,
          )
        : '';
      const all = { ...params, permission };
      await deps.notifier.send({
        channel: contact.email ? 'email' : 'sms',
        recipient,
        customerId,
        subject: translate(lang, `message.apiKey.${key}Subject`, all),
        body: translate(lang, `message.apiKey.${key}Body`, all),
      });
    } catch (error) {
      deps.log.warn({ err: error, customer: customerId }, 'API key notice could not be sent');
    }
  }

  /** Creates a key (real accounts only); the answer is the only time the secret is shown. */
  async function create(
    auth: AuthContext,
    body: CreateApiKeyBody,
    meta: { ip: string },
  ): Promise<ApiKeyCreatedData> {
    if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
    const label = labelOf(body.label);
    const ips = parseIps(body.ips);
    const days = expiryDaysOf(body.expires_days);
    const now = clock.now();
    const id = newId('apk', now.getTime());
    const secret = randomBytes(32).toString('hex');
    const row: repo.ApiKeyRow = {
      id,
      customer_id: auth.customerId,
      api_key: randomBytes(32).toString('hex'),
      label,
      permission: body.permission,
      ips: ips.join(','),
      secret_sealed: deps.cipher.sealText(aad(id), secret),
      created_at: now,
      expires_at: new Date(now.getTime() + days * DAY_MS),
      last_used_at: null,
      revoked_at: null,
      revoked_by: null,
      revoked_staff_id: null,
      revoke_reason: null,
    };
    await inTransaction(db, async (tx) => {
      // One creation per customer at a time: two racing for the last slot never both win.
      await sql`select pg_advisory_xact_lock(hashtextextended(${`apikeys|${auth.customerId}`}, 0))`.execute(
        tx,
      );
      await deps.stepUp(auth.customerId, body.trade_password, body.google_code, tx);
      if ((await repo.activeCount(tx, auth.customerId, now)) >= APIKEY_LIMITS.perCustomerMax)
        refuse('APIKEY_LIMIT', { max: APIKEY_LIMITS.perCustomerMax });
      await repo.insertKey(tx, row);
      await deps.securityEvent(tx, {
        customerId: auth.customerId,
        kind: 'api_key_created',
        detail: `${label} (${body.permission}${ips.length ? `, ${ips.join(' ')}` : ''})`,
        ip: meta.ip,
        at: now,
      });
    });
    deps.log.info({ customer: auth.customerId, key: id, permission: body.permission }, 'API key created');
    await tell(auth.customerId, 'created', {
      label,
      permission: body.permission,
      expires: `${row.expires_at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    });
    return { ...keyData(row, now), secret };
  }

  async function list(customerId: string): Promise<ApiKeysData> {
    const now = clock.now();
    return {
      items: (await repo.keysOf(db, customerId)).map((r) => keyData(r, now)),
      max: APIKEY_LIMITS.perCustomerMax,
    };
  }

  /** The customer revokes one of their keys. */
  async function revoke(auth: AuthContext, id: string, meta: { ip: string }): Promise<ApiKeyData> {
    const now = clock.now();
    const row = await inTransaction(db, async (tx) => {
      const found = await repo.keyById(tx, id, { lock: true });
      if (!found || found.customer_id !== auth.customerId) refuse('NOT_FOUND');
      if (found.revoked_at) refuse('APIKEY_ALREADY_REVOKED');
      const set = { revoked_at: now, revoked_by: 'customer', revoked_staff_id: null, revoke_reason: null };
      await repo.markRevoked(tx, id, set);
      await deps.securityEvent(tx, {
        customerId: auth.customerId,
        kind: 'api_key_revoked',
        detail: found.label,
        ip: meta.ip,
        at: now,
      });
      return { ...found, ...set };
    });
    await tell(auth.customerId, 'revoked', { label: row.label });
    return keyData(row, now);
  }

  /** Staff revoke a key with a reason: audited, recorded in the customer's trail, and the customer told. */
  async function staffRevoke(staff: StaffContext, id: string, reasonText: string, meta: { ip: string }) {
    const reason = reasonText.trim();
    if (reason.length < APIKEY_LIMITS.reasonMin)
      refuse('FIELD_TOO_SHORT', { field: 'reason', min: APIKEY_LIMITS.reasonMin });
    const now = clock.now();
    const row = await inTransaction(db, async (tx) => {
      const found = await repo.keyById(tx, id, { lock: true });
      if (!found) refuse('NOT_FOUND');
      if (found.revoked_at) refuse('APIKEY_ALREADY_REVOKED');
      const set = {
        revoked_at: now,
        revoked_by: 'staff',
        revoked_staff_id: staff.staffId,
        revoke_reason: reason,
      };
      await repo.markRevoked(tx, id, set);
      await deps.audit.record(tx, {
        actorId: staff.staffId,
        action: 'apikey.revoke',
        targetType: 'customer',
        targetId: found.customer_id,
        before: { key: id, label: found.label, state: stateOf(found, now) },
        after: { key: id, state: 'revoked' },
        reason,
      });
      await deps.securityEvent(tx, {
        customerId: found.customer_id,
        kind: 'api_key_revoked_by_staff',
        detail: `${found.label}: ${reason}`,
        ip: meta.ip,
        at: now,
      });
      return { ...found, ...set };
    });
    await tell(row.customer_id, 'staffRevoked', { label: row.label, reason });
    return keyData(row, now);
  }

  // Calls arriving together look their keys up in one query (a few at once over the pool), as
  // sessions are (accounts); nothing is cached, so a revocation counts from the next call.
  const findKey = coalesce(
    async (apiKeys: string[]) => {
      const rows = await repo.keysByApiKeys(db, [...new Set(apiKeys)]);
      const byKey = new Map(rows.map((r) => [r.api_key, r]));
      return apiKeys.map((k) => byKey.get(k) ?? null);
    },
    { lanes: POOL_LANES },
  );

  /**
   * When this process last wrote a key's `last_used_at`: written at most once a minute per key (the
   * column's precision), so a busy bot's calls are not each an update.
   */
  const touchedAt = new Map<string, number>();
  async function touch(id: string, now: Date): Promise<void> {
    const last = touchedAt.get(id);
    const t = now.getTime();
    if (last !== undefined && t >= last && t - last < repo.TOUCH_EVERY_MS) return;
    if (touchedAt.size >= TOUCHED_KEPT) touchedAt.clear();
    // Marked before the write, so calls of the same turn do not each write; forgotten when the write
    // fails, so the next call writes it (not a minute later).
    touchedAt.set(id, t);
    try {
      await repo.touch(db, id, now);
    } catch (error) {
      if (touchedAt.get(id) === t) touchedAt.delete(id);
      throw error;
    }
  }

  /**
   * The key named by `X-MBX-APIKEY`, usable now from `ip`. Not yet a use: a call counts (its
   * `last_used_at`) only once every check of it has passed.
   */
  async function usableKey(
    apiKey: string | undefined,
    ip: string,
  ): Promise<{ row: repo.ApiKeyRow; principal: KeyPrincipal; now: Date }> {
    if (!apiKey || !/^[0-9a-f]{64}$/.test(apiKey)) refuse('APIKEY_INVALID');
    const row = await findKey(apiKey);
    const now = clock.now();
    if (!row || stateOf(row, now) !== 'active') refuse('APIKEY_INVALID');
    const entries = row.ips === '' ? [] : row.ips.split(',');
    if (!ipAllowed(entries, ip)) refuse('APIKEY_IP_NOT_ALLOWED', { ip: plainIp(ip) });
    if (!(await deps.customerActive(row.customer_id))) refuse('APIKEY_INVALID');
    return {
      row,
      principal: {
        keyId: row.id,
        customerId: row.customer_id,
        permission: row.permission as ApiKeyPermission,
      },
      now,
    };
  }

  /** An API-key call (the user-data stream): the key usable now from `ip`; a use of it. */
  async function resolveKey(apiKey: string | undefined, ip: string): Promise<KeyPrincipal> {
    const { principal, now } = await usableKey(apiKey, ip);
    await touch(principal.keyId, now);
    return principal;
  }

  /**
   * A SIGNED call: the key is usable from this address, the timestamp is within the receive window
   * on the injected clock, and the HMAC-SHA256 signature of the total params matches. `trade`: the
   * call places or cancels orders (a `read` key is refused).
   */
  async function verifySigned(req: KeyedRequest, options: { trade: boolean }): Promise<KeyPrincipal> {
    const { row, principal, now } = await usableKey(req.apiKey, req.ip);
    const recvWindow =
      req.recvWindow === undefined || req.recvWindow === ''
        ? SIGNING.recvWindowDefault
        : Number(req.recvWindow);
    if (!Number.isInteger(recvWindow) || recvWindow <= 0 || recvWindow > SIGNING.recvWindowMax)
      refuse('BAD_INPUT', { field: 'recvWindow' });
    if (req.timestamp === undefined || req.timestamp === '') refuse('FIELD_REQUIRED', { field: 'timestamp' });
    const timestamp = Number(req.timestamp);
    if (!/^\d{1,15}$/.test(req.timestamp)) refuse('BAD_INPUT', { field: 'timestamp' });
    if (!withinWindow(timestamp, recvWindow, clock.now().getTime()))
      refuse('APIKEY_TIMESTAMP_OUTSIDE_WINDOW', { window: recvWindow });
    const { payload, signature } = signedPayload(req.query, req.body);
    if (!signature) refuse('FIELD_REQUIRED', { field: 'signature' });
    const secret = deps.cipher.openText(aad(row.id), row.secret_sealed);
    if (!signatureMatches(secret, payload, signature)) refuse('APIKEY_SIGNATURE_INVALID');
    if (options.trade && principal.permission !== 'trade') refuse('APIKEY_PERMISSION');
    await touch(row.id, now);
    return principal;
  }

  return {
    create,
    list: (auth: AuthContext) => list(auth.customerId),
    revoke,
    adminList: (customerId: string) => list(customerId),
    staffRevoke,
    resolveKey,
    verifySigned,
  };
}

export type ApiKeys = ReturnType<typeof createApiKeys>;
