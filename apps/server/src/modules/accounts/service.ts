import {
  ACCESS_LIMITS,
  type CodeScene,
  type InfoData,
  isLang,
  type Lang,
  type LoginBody,
  type RegisterBody,
  type UpdatePasswordBody,
  type WsSessionEndReason,
} from '@bourse/protocol';
import { hash, verify } from '@node-rs/argon2';
import type { Logger } from 'pino';
import { type Db, inTransaction, isUniqueViolation, type Tx } from '../../db/database.ts';
import type { AuthContext, SessionResolver } from '../../http/context.ts';
import { Refusal, refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { coalesce, POOL_LANES } from '../../lib/coalesce.ts';
import { hmac, newToken, sha256 } from '../../lib/crypto.ts';
import { newId, randomCode } from '../../lib/ids.ts';
import type { Notifier } from '../notify/index.ts';
import { ARGON2 } from './argon.ts';
import { type CodeDeps, consumeCode, issueCode } from './codes.ts';
import {
  type Identity,
  identityKey,
  knownCountry,
  parseEmail,
  parseLoginAccount,
  parsePhone,
  targetOf,
} from './identity.ts';
import { createProfile } from './profile.ts';
import * as repo from './repo.ts';

export { ARGON2 };

/** Demo content of a fresh install (DEMO_CONTENT=true): a real customer to sign in with. */
export const DEMO_CUSTOMER = { email: 'demo@bourse.local', password: 'demo1234' } as const;
const INVITATION_CODE_LENGTH = 8;

export type AccountsConfig = {
  publicUrl: string;
  invitationRequired: boolean;
  demoTtlHours: number;
  sessionTtlDays: number;
  loginMaxFailures: number;
  loginLockMinutes: number;
};

export type AccountsDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  secret: string;
  notifier: Notifier;
  config: AccountsConfig;
  /** Called once a demo customer exists: the ledger gives them their virtual funds. */
  onDemoCreated?: (customerId: string) => Promise<void>;
  /** Called once a customer registered with the agree box ticked: agreements records the acceptance. */
  onRegistered?: (customerId: string, meta: RequestMeta) => Promise<void>;
  /** Whether the customer set a trade password (withdrawals module); `web/info` reports it. */
  hasTradePassword?: (customerId: string) => Promise<boolean>;
  /** Whether the customer enabled Google authenticator (withdrawals module): the security score. */
  hasGoogleAuth?: (customerId: string) => Promise<boolean>;
  /** The customer's identity verification tier (0 none, 1 primary, 2 advanced, 3 address); 0 until wired. */
  verificationTier?: (customerId: string) => Promise<number>;
  /** The staff audit log: staff checks of security answers are recorded in it. */
  audit?: AuditLog;
};

export type RequestMeta = { ip: string; userAgent: string; lang: Lang };

export type SessionEndReason = WsSessionEndReason;

/** Where a customer is told things: email, else phone; the language messages are written in. */
export type Contact = { email: string | null; phone: string | null; language: string };

/** Why a session no longer holds at `now`, or null while it does (HTTP calls and sockets alike). */
export function sessionEndReason(
  row: {
    revoked_at: Date | null;
    revoked_reason: string | null;
    expires_at: Date;
    status: string;
    is_demo: boolean;
    demo_expires_at: Date | null;
  },
  now: Date,
): SessionEndReason | null {
  if (row.revoked_reason === 'password_changed') return 'SESSION_PASSWORD_CHANGED';
  if (row.revoked_at !== null || row.expires_at <= now) return 'SESSION_EXPIRED';
  if (row.status !== 'active') return 'ACCOUNT_DISABLED';
  if (row.is_demo && row.demo_expires_at !== null && row.demo_expires_at <= now) return 'DEMO_EXPIRED';
  return null;
}

function checkNewPassword(input: { password: string; password2: string }): void {
  const { passwordMin: min, passwordMax: max } = ACCESS_LIMITS;
  if (input.password.length < min || input.password.length > max) refuse('PASSWORD_LENGTH', { min, max });
  if (input.password !== input.password2) refuse('PASSWORDS_MISMATCH');
}

/** Where a code goes: an email, or a phone with its area code (never an account name). */
function codeIdentity(account: string, areaCode: string | undefined): Identity {
  if (account.includes('@')) {
    const email = parseEmail(account);
    if (!email) refuse('EMAIL_INVALID');
    return { kind: 'email', email };
  }
  return parsePhone(account, { areaCode }) ?? refuse('PHONE_INVALID');
}

export function createAccounts(deps: AccountsDeps) {
  const { db, clock, config } = deps;
  const codeDeps: CodeDeps = { db, clock, secret: deps.secret, notifier: deps.notifier };
  // Verified against when an account does not exist, so a miss costs what a hit costs.
  const dummyHash = hash('not-a-password', ARGON2);

  async function openSession(customerId: string, meta: RequestMeta): Promise<string> {
    const token = newToken();
    const now = clock.now();
    await repo.insertSession(db, {
      id: newId('ses', now.getTime()),
      customer_id: customerId,
      token_hash: sha256(token),
      created_at: now,
      expires_at: new Date(now.getTime() + config.sessionTtlDays * 86_400_000),
      revoked_at: null,
      revoked_reason: null,
      ip: meta.ip.slice(0, 64),
      user_agent: meta.userAgent.slice(0, 256),
    });
    return token;
  }

  async function newCustomer(input: {
    identity?: Identity;
    /** The nationality chosen on the e-mail tab (a phone's comes with the phone). */
    country?: string;
    passwordHash: string | null;
    invitedBy: string | null;
    demoExpiresAt?: Date;
    wallet?: string;
    lang: Lang;
  }): Promise<repo.CustomerRow> {
    const now = clock.now();
    for (let attempt = 0; ; attempt++) {
      const row: repo.CustomerRow = {
        id: newId('usr', now.getTime()),
        uid: await repo.nextUid(db),
        name: null,
        email: input.identity?.kind === 'email' ? input.identity.email : null,
        phone: input.identity?.kind === 'phone' ? input.identity.phone : null,
        area_code: input.identity?.kind === 'phone' ? input.identity.areaCode : '',
        country: input.identity?.kind === 'phone' ? input.identity.country : (input.country ?? ''),
        password_hash: input.passwordHash,
        invitation_code: randomCode(INVITATION_CODE_LENGTH),
        invited_by: input.invitedBy,
        is_demo: input.demoExpiresAt !== undefined,
        demo_expires_at: input.demoExpiresAt ?? null,
        wallet_address: input.wallet ?? null,
        language: input.lang,
        status: 'active',
        failed_logins: 0,
        locked_until: null,
        created_at: now,
        updated_at: now,
      };
      try {
        await repo.insertCustomer(db, row);
        return row;
      } catch (error) {
        // An invitation-code collision is retried; an email, phone or wallet one is the customer's.
        if (isUniqueViolation(error, 'accounts_customer_invitation_code_key') && attempt < 5) continue;
        if (isUniqueViolation(error)) refuse('ACCOUNT_EXISTS');
        throw error;
      }
    }
  }

  /**
   * The nationality the e-mail tab sends: a country the register form lists, else BAD_INPUT naming
   * `country`; none at all leaves it to be chosen once at primary verification.
   */
  function registrationCountry(body: RegisterBody): string {
    if (body.type !== 'email' || body.country === undefined || body.country.trim() === '') return '';
    return knownCountry(body.country) ?? refuse('BAD_INPUT', { field: 'country' });
  }

  function registrationIdentity(body: RegisterBody): Identity {
    if (body.type === 'email') {
      const email = parseEmail(body.account);
      if (!email) refuse('EMAIL_INVALID');
      return { kind: 'email', email };
    }
    const phone = parsePhone(body.account, { areaCode: body.area_code, country: body.country });
    if (!phone) refuse('PHONE_INVALID');
    return phone;
  }

  // Requests arriving together look their sessions up in one query (a few at once over the pool).
  const findSession = coalesce((hashes: string[]) => repo.findSessionsByTokenHashes(db, hashes), {
    lanes: POOL_LANES,
  });
  const sessions: SessionResolver = {
    async resolve(token) {
      const row = await findSession(sha256(token));
      if (!row) refuse('SESSION_EXPIRED');
      const ended = sessionEndReason(row, clock.now());
      if (ended) refuse(ended);
      return { customerId: row.customer_id, sessionId: row.session_id, isDemo: row.is_demo, token };
    },
  };

  /** Told after a customer's sessions ended in this process (the websocket drops their private channels). */
  const endedListeners = new Set<(customerId: string) => void>();
  function sessionsEnded(customerId: string): void {
    for (const listener of endedListeners) {
      try {
        listener(customerId);
      } catch (error) {
        deps.log.warn({ err: error, customer: customerId }, 'a session-ended listener failed');
      }
    }
  }

  const profile = createProfile({
    db,
    clock,
    log: deps.log,
    notifier: deps.notifier,
    codes: codeDeps,
    sessionsEnded,
    ...(deps.audit ? { audit: deps.audit } : {}),
    ...(deps.hasTradePassword ? { hasTradePassword: deps.hasTradePassword } : {}),
    ...(deps.hasGoogleAuth ? { hasGoogleAuth: deps.hasGoogleAuth } : {}),
    ...(deps.verificationTier ? { verificationTier: deps.verificationTier } : {}),
  });

  return {
    sessions,
    /** The profile and security centre (profile.ts). */
    profile,

    /** Calls `listener(customerId)` after sessions of that customer ended (committed). */
    onSessionsEnded(listener: (customerId: string) => void): () => void {
      endedListeners.add(listener);
      return () => endedListeners.delete(listener);
    },
    /** For other modules that end sessions in their own transaction (staff disabling), after commit. */
    sessionsEnded,

    /** Session id → why it ended, for the ids that no longer hold (unknown ids count as expired). */
    async endedSessions(sessionIds: readonly string[]): Promise<Map<string, SessionEndReason>> {
      const rows = await repo.sessionStates(db, sessionIds);
      const now = clock.now();
      const ended = new Map<string, SessionEndReason>();
      const found = new Set<string>();
      for (const row of rows) {
        found.add(row.session_id);
        const reason = sessionEndReason(row, now);
        if (reason) ended.set(row.session_id, reason);
      }
      for (const id of sessionIds) if (!found.has(id)) ended.set(id, 'SESSION_EXPIRED');
      return ended;
    },

    /** A customer's public number (`uid`), or null for an unknown id: the websocket's private channels. */
    async uidOf(customerId: string): Promise<string | null> {
      return (await repo.findCustomer(db, { id: customerId }))?.uid ?? null;
    },

    /** Where and in which language to tell a customer something (withdrawal notices); null if unknown. */
    async contactOf(customerId: string): Promise<Contact | null> {
      const row = await repo.findCustomer(db, { id: customerId });
      return row ? { email: row.email, phone: row.phone, language: row.language } : null;
    },

    /**
     * Records the customer's nationality when none is (accounts that registered by e-mail before the
     * form asked, the demo customer): a known country code or BAD_INPUT naming `country`. Only an
     * empty one is written, in one statement, so racing requests cannot both set it; answers the
     * country now on record, which differs from `country` when one was already there. Pass the
     * caller's transaction to commit it with what it decides.
     */
    async fixCountry(q: Db | Tx, customerId: string, country: string): Promise<string> {
      const code = knownCountry(country) ?? refuse('BAD_INPUT', { field: 'country' });
      const recorded = await repo.fixCountry(q, customerId, code, clock.now());
      if (recorded === null) refuse('NOT_FOUND');
      return recorded;
    },

    /** The id of the customer holding this (lower-case) email, if any: system customers such as the market maker. */
    async customerIdByEmail(email: string): Promise<string | null> {
      return (await repo.findCustomer(db, { email }))?.id ?? null;
    },

    /** Customer id → back-office label (email, else phone, else uid): for other modules' staff views. */
    customerLabels(ids: readonly string[]): Promise<Map<string, string>> {
      return repo.customerLabels(db, ids);
    },

    publicConfig() {
      return {
        invitation_required: config.invitationRequired,
        password_min: ACCESS_LIMITS.passwordMin,
        password_max: ACCESS_LIMITS.passwordMax,
        demo_ttl_hours: config.demoTtlHours,
        login_max_failures: config.loginMaxFailures,
        login_lock_minutes: config.loginLockMinutes,
      };
    },

    async requestCode(input: {
      account: string;
      areaCode?: string;
      scene: CodeScene;
      auth: AuthContext | null;
      lang: Lang;
    }) {
      const identity = codeIdentity(input.account, input.areaCode);
      const existing = await repo.findCustomer(db, identityKey(identity));
      const signedIn = input.scene === 'bind' || input.scene === 'withdraw' || input.scene === 'unbind';
      if (signedIn && !input.auth) refuse('LOGIN_REQUIRED');
      // `withdraw` and `unbind` (the current contact, before a change) go to the customer's own contact only.
      if ((input.scene === 'withdraw' || input.scene === 'unbind') && existing?.id !== input.auth?.customerId)
        refuse('BAD_INPUT', { field: 'account' });
      // No account enumeration: whether the address has an account or not, the answer is "code sent".
      // Where a code would be useless or reveal nothing the owner should not know, the address gets a
      // notice instead of the code (the code is filed all the same, so tries and cool-down match).
      const taken = existing !== undefined && existing.id !== input.auth?.customerId;
      const notice =
        (input.scene === 'register' || input.scene === 'bind') && taken
          ? ('exists' as const)
          : (input.scene === 'reset' || input.scene === 'login') && !existing
            ? ('unknown' as const)
            : undefined;
      // A bind code is filed for the customer binding (profile.ts): good for them only, and two
      // customers' codes for one address do not supersede each other; it carries their phrase.
      const binder = input.scene === 'bind' ? input.auth?.customerId : undefined;
      return issueCode(codeDeps, {
        target: targetOf(identity),
        channel: identity.kind === 'email' ? 'email' : 'sms',
        scene: binder ? `bind:${binder}` : input.scene,
        lang: input.lang,
        ...(notice ? { notice } : {}),
        ...(binder && !notice ? { customerId: binder } : {}),
      });
    },

    async register(body: RegisterBody, meta: RequestMeta) {
      if (body.agree !== '1') refuse('AGREEMENT_REQUIRED');
      checkNewPassword(body);
      const identity = registrationIdentity(body);
      const country = registrationCountry(body);
      const invitation = body.invitation_code?.trim().toUpperCase() ?? '';
      if (config.invitationRequired && invitation === '') refuse('INVITATION_REQUIRED');
      let invitedBy: string | null = null;
      if (invitation !== '') {
        const inviter = await repo.findCustomer(db, { invitationCode: invitation });
        if (!inviter || inviter.is_demo) refuse('INVITATION_INVALID');
        invitedBy = inviter.id;
      }
      // The code first: only its owner learns that an address is taken (their code request for a
      // taken address sent a notice, not a code, so this is a race with another registration).
      await consumeCode(codeDeps, { target: targetOf(identity), scene: 'register', code: body.code });
      if (await repo.findCustomer(db, identityKey(identity))) refuse('ACCOUNT_EXISTS');
      const customer = await newCustomer({
        identity,
        country,
        passwordHash: await hash(body.password, ARGON2),
        invitedBy,
        lang: meta.lang,
      });
      deps.log.info({ customer: customer.id, uid: customer.uid }, 'customer registered');
      await deps.onRegistered?.(customer.id, meta);
      return { token_h5: await openSession(customer.id, meta), uid: customer.uid };
    },

    async login(body: LoginBody, meta: RequestMeta) {
      const identity = parseLoginAccount(body.account, { areaCode: body.area_code });
      if (!identity) refuse('ACCOUNT_NAME_INVALID');
      if (body.password === undefined && body.code === undefined)
        refuse('FIELD_REQUIRED', { field: 'password' });
      const customer = await repo.findCustomer(db, identityKey(identity));
      const now = clock.now();
      // An unknown identifier answers exactly as a known one with a wrong password or code: the same
      // reasons, a count-down and lock-out of its own (keyed by an HMAC of the identifier), and the
      // same argon2 work.
      if (!customer) return unknownLogin(targetOf(identity), body, now);
      checkLock(customer.locked_until, now);
      if (body.code !== undefined) {
        await consumeCode(codeDeps, { target: targetOf(identity), scene: 'login', code: body.code });
      } else {
        // No password set (a wallet-only account): the same argon2 work, and a failure.
        const matches = await verify(customer.password_hash ?? (await dummyHash), body.password ?? '');
        if (!matches || !customer.password_hash) await recordFailure(customer.id, now);
      }
      // Only who proved the credentials learns that the account is disabled.
      if (customer.status !== 'active') refuse('ACCOUNT_DISABLED');
      await repo.updateCustomer(db, customer.id, { failed_logins: 0, locked_until: null });
      return { token: await openSession(customer.id, meta), uid: customer.uid };
    },

    async tempLogin(meta: RequestMeta) {
      const expiresAt = new Date(clock.now().getTime() + config.demoTtlHours * 3_600_000);
      const customer = await newCustomer({
        passwordHash: null,
        invitedBy: null,
        demoExpiresAt: expiresAt,
        lang: meta.lang,
      });
      await deps.onDemoCreated?.(customer.id);
      return {
        token: await openSession(customer.id, meta),
        uid: customer.uid,
        expires_at: expiresAt.getTime(),
      };
    },

    async logout(auth: AuthContext) {
      await repo.revokeSessions(db, {
        customerId: auth.customerId,
        onlyId: auth.sessionId,
        reason: 'logout',
        at: clock.now(),
      });
      sessionsEnded(auth.customerId);
    },

    async info(auth: AuthContext): Promise<InfoData> {
      const c = await repo.findCustomer(db, { id: auth.customerId });
      if (!c) refuse('SESSION_EXPIRED');
      const phoneNational = c.phone && c.area_code ? c.phone.slice(c.area_code.length + 1) : (c.phone ?? '');
      return {
        uid: c.uid,
        name: c.name ?? '',
        email: c.email ?? '',
        phone: phoneNational,
        phone_display: (phoneNational || c.email || '').slice(0, 12),
        area_code: c.area_code,
        country: c.country,
        invitation_code: c.invitation_code,
        invite_link: `${config.publicUrl}/register?invite=${c.invitation_code}`,
        transaction_password: (await deps.hasTradePassword?.(c.id)) ? '1' : '0',
        language: c.language,
        is_demo: c.is_demo ? 1 : 0,
        demo_expires_at: c.demo_expires_at?.getTime() ?? null,
        wallet_address: c.wallet_address ?? '',
        created_at: c.created_at.getTime(),
      };
    },

    async setLanguage(auth: AuthContext, language: string) {
      if (!isLang(language)) refuse('BAD_INPUT', { field: 'language' });
      await repo.updateCustomer(db, auth.customerId, { language, updated_at: clock.now() });
    },

    async updatePassword(body: UpdatePasswordBody, auth: AuthContext | null) {
      if (body.old_password !== undefined) {
        if (!auth) refuse('LOGIN_REQUIRED');
        return changePassword(auth, { ...body, old_password: body.old_password });
      }
      if (body.account === undefined) refuse('FIELD_REQUIRED', { field: 'old_password' });
      if (body.code === undefined) refuse('FIELD_REQUIRED', { field: 'code' });
      checkNewPassword(body);
      const identity = parseLoginAccount(body.account, { areaCode: body.area_code });
      if (!identity || identity.kind === 'name') refuse('ACCOUNT_NAME_INVALID');
      // The code first, so an unknown address answers like a known one with a wrong code (a code
      // requested for it was never sent: the address got a notice).
      await consumeCode(codeDeps, { target: targetOf(identity), scene: 'reset', code: body.code });
      const customer = await repo.findCustomer(db, identityKey(identity));
      if (!customer) refuse('CODE_EXPIRED');
      await setPassword(customer.id, body.password, {});
      return { ended_sessions: 'all' as const };
    },

    /** Idempotent: creates the demo-content customer when missing (another process may race us). */
    async ensureDemoCustomer(): Promise<void> {
      if (await repo.findCustomer(db, { email: DEMO_CUSTOMER.email })) return;
      try {
        await newCustomer({
          identity: { kind: 'email', email: DEMO_CUSTOMER.email },
          passwordHash: await hash(DEMO_CUSTOMER.password, ARGON2),
          invitedBy: null,
          lang: 'en',
        });
      } catch (error) {
        if (!(error instanceof Refusal && error.reason === 'ACCOUNT_EXISTS')) throw error;
      }
      deps.log.info(`demo content: sign in as ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`);
    },

    /** The login password check other modules confirm with (the trade password's first setting). */
    async checkPassword(customerId: string, password: string): Promise<boolean> {
      const customer = await repo.findCustomer(db, { id: customerId });
      if (!customer?.password_hash) return false;
      return verify(customer.password_hash, password);
    },

    walletNonceTtlMs: 10 * 60 * 1000,
    newCustomer,
    openSession,
  };

  function checkLock(lockedUntil: Date | null, now: Date): void {
    if (lockedUntil && lockedUntil > now) {
      const minutes = Math.ceil((lockedUntil.getTime() - now.getTime()) / 60_000);
      refuse('LOGIN_LOCKED', { minutes, maxFailures: config.loginMaxFailures });
    }
  }

  /** A login for an identifier no customer has: refused as a wrong password or code would be. */
  async function unknownLogin(target: string, body: LoginBody, now: Date): Promise<never> {
    const keyHash = hmac(deps.secret, `login-guard|${target}`);
    const guard = await db
      .selectFrom('accounts_login_guard')
      .select('locked_until')
      .where('key_hash', '=', keyHash)
      .executeTakeFirst();
    checkLock(guard?.locked_until ?? null, now);
    if (body.code !== undefined) {
      await consumeCode(codeDeps, { target, scene: 'login', code: body.code });
      refuse('CODE_EXPIRED');
    }
    await verify(await dummyHash, body.password ?? '');
    const failures = await inTransaction(db, async (tx) => {
      await tx
        .insertInto('accounts_login_guard')
        .values({ key_hash: keyHash, failed_logins: 0, locked_until: null, updated_at: now })
        .onConflict((oc) => oc.column('key_hash').doNothing())
        .execute();
      const row = await tx
        .selectFrom('accounts_login_guard')
        .select('failed_logins')
        .where('key_hash', '=', keyHash)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const count = row.failed_logins + 1;
      const locked = count >= config.loginMaxFailures;
      await tx
        .updateTable('accounts_login_guard')
        .set({
          failed_logins: locked ? 0 : count,
          locked_until: locked ? new Date(now.getTime() + config.loginLockMinutes * 60_000) : null,
          updated_at: now,
        })
        .where('key_hash', '=', keyHash)
        .execute();
      return count;
    });
    return failureRefusal(failures);
  }

  function failureRefusal(failures: number): never {
    if (failures >= config.loginMaxFailures) {
      refuse('LOGIN_LOCKED', { minutes: config.loginLockMinutes, maxFailures: config.loginMaxFailures });
    }
    refuse('LOGIN_FAILED', { attemptsLeft: config.loginMaxFailures - failures });
  }

  async function recordFailure(customerId: string, now: Date): Promise<never> {
    const lockedUntil = new Date(now.getTime() + config.loginLockMinutes * 60_000);
    const failures = await inTransaction(db, async (tx) => {
      const c = await repo.findCustomer(tx, { id: customerId }, { lock: true });
      const count = (c?.failed_logins ?? 0) + 1;
      const locked = count >= config.loginMaxFailures;
      await repo.updateCustomer(tx, customerId, {
        failed_logins: locked ? 0 : count,
        locked_until: locked ? lockedUntil : null,
      });
      return count;
    });
    return failureRefusal(failures);
  }

  async function changePassword(
    auth: AuthContext,
    body: { old_password: string; password: string; password2: string },
  ) {
    if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
    checkNewPassword(body);
    const customer = await repo.findCustomer(db, { id: auth.customerId });
    if (!customer?.password_hash || !(await verify(customer.password_hash, body.old_password))) {
      refuse('OLD_PASSWORD_WRONG');
    }
    if (body.password === body.old_password) refuse('PASSWORD_UNCHANGED');
    const ended = await setPassword(customer.id, body.password, { keepSessionId: auth.sessionId });
    return { ended_sessions: ended };
  }

  /** New password; every other session ends and must confirm with a new login (code 2000). */
  async function setPassword(customerId: string, password: string, options: { keepSessionId?: string }) {
    const passwordHash = await hash(password, ARGON2);
    const now = clock.now();
    const ended = await inTransaction(db, async (tx) => {
      await repo.updateCustomer(tx, customerId, {
        password_hash: passwordHash,
        failed_logins: 0,
        locked_until: null,
        updated_at: now,
      });
      return repo.revokeSessions(tx, {
        customerId,
        reason: 'password_changed',
        at: now,
        ...(options.keepSessionId ? { exceptId: options.keepSessionId } : {}),
      });
    });
    if (ended > 0) sessionsEnded(customerId);
    return ended;
  }
}

export type Accounts = ReturnType<typeof createAccounts>;
