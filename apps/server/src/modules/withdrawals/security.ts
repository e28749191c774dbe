import { hash, verify } from '@node-rs/argon2';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { type Db, inTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { open, seal } from '../../lib/crypto.ts';
import { ARGON2 } from '../accounts/index.ts';
import * as repo from './repo.ts';

/** Trade password: exactly 6 digits (spec 5); lock-out after repeated failures. */
export const TRADE_PASSWORD_PATTERN = /^\d{6}$/;
export const TRADE_PASSWORD_MAX_FAILURES = 5;
export const TRADE_PASSWORD_LOCK_MINUTES = 15;
/** TOTP: 30 s steps, one step either side accepted, each step usable once. */
const TOTP_TOLERANCE_S = 30;
const TOTP_ISSUER = 'Bourse';

export type SecurityDeps = {
  db: Db;
  clock: Clock;
  secret: string;
  /** The customer's login password check (accounts module). */
  checkLoginPassword: (customerId: string, password: string) => Promise<boolean>;
};

function checkFormat(password: string, password2?: string): void {
  if (!TRADE_PASSWORD_PATTERN.test(password)) refuse('TRADE_PASSWORD_FORMAT');
  if (password2 !== undefined && password !== password2) refuse('PASSWORDS_MISMATCH');
}

/** Used by the accounts module's `web/info` (transaction_password '1' once set). */
export async function hasTradePassword(db: Db, customerId: string): Promise<boolean> {
  return (await repo.findTradePassword(db, customerId)) !== null;
}

/** Whether Google authenticator is enabled: the accounts module's security score asks (wiring.ts). */
export async function hasGoogleAuth(db: Db, customerId: string): Promise<boolean> {
  return Boolean((await repo.findGoogle(db, customerId))?.enabled_at);
}

export function createSecurity(deps: SecurityDeps) {
  const { db, clock } = deps;
  const googleKey = `withdrawals-google|${deps.secret}`;

  /** Checks the trade password; a failure is counted in its own transaction (the refusal keeps it). */
  async function checkTradePassword(customerId: string, password: string): Promise<void> {
    const row = await repo.findTradePassword(db, customerId);
    if (!row) refuse('TRADE_PASSWORD_NOT_SET');
    const now = clock.now();
    if (row.locked_until && row.locked_until > now) {
      const minutes = Math.ceil((row.locked_until.getTime() - now.getTime()) / 60_000);
      refuse('TRADE_PASSWORD_LOCKED', { minutes, maxFailures: TRADE_PASSWORD_MAX_FAILURES });
    }
    if (TRADE_PASSWORD_PATTERN.test(password) && (await verify(row.password_hash, password))) {
      if (row.failed_count > 0 || row.locked_until) {
        await repo.updateTradePassword(db, customerId, { failed_count: 0, locked_until: null });
      }
      return;
    }
    const failures = await inTransaction(db, async (tx) => {
      const locked = await repo.findTradePassword(tx, customerId, { lock: true });
      const count = (locked?.failed_count ?? 0) + 1;
      const lockNow = count >= TRADE_PASSWORD_MAX_FAILURES;
      await repo.updateTradePassword(tx, customerId, {
        failed_count: lockNow ? 0 : count,
        locked_until: lockNow ? new Date(now.getTime() + TRADE_PASSWORD_LOCK_MINUTES * 60_000) : null,
        updated_at: now,
      });
      return count;
    });
    if (failures >= TRADE_PASSWORD_MAX_FAILURES) {
      refuse('TRADE_PASSWORD_LOCKED', {
        minutes: TRADE_PASSWORD_LOCK_MINUTES,
        maxFailures: TRADE_PASSWORD_MAX_FAILURES,
      });
    }
    refuse('TRADE_PASSWORD_WRONG', { attemptsLeft: TRADE_PASSWORD_MAX_FAILURES - failures });
  }

  async function checkGoogle(customerId: string, code: string | undefined): Promise<void> {
    const row = await repo.findGoogle(db, customerId);
    if (!row?.enabled_at) return;
    if (!code) refuse('GOOGLE_CODE_REQUIRED');
    await consumeTotp(customerId, code);
  }

  /** One use per time step: the step is recorded under the row lock. */
  async function consumeTotp(customerId: string, code: string): Promise<void> {
    if (!/^\d{6}$/.test(code)) refuse('GOOGLE_CODE_WRONG');
    const ok = await inTransaction(db, async (tx) => {
      const row = await repo.findGoogle(tx, customerId, { lock: true });
      if (!row) return false;
      const secret = open(googleKey, row.secret_sealed);
      const result = await verifyTotp({
        secret,
        token: code,
        epoch: Math.floor(clock.now().getTime() / 1000),
        epochTolerance: TOTP_TOLERANCE_S,
      });
      if (!result.valid) return false;
      const step = String(
        (result as { timeStep?: number }).timeStep ?? Math.floor(clock.now().getTime() / 30_000),
      );
      if (row.last_step !== null && BigInt(row.last_step) >= BigInt(step)) return false;
      await repo.updateGoogle(tx, customerId, { last_step: step });
      return true;
    });
    if (!ok) refuse('GOOGLE_CODE_WRONG');
  }

  return {
    checkTradePassword,
    checkGoogle,

    async status(auth: AuthContext) {
      const [tp, google] = await Promise.all([
        repo.findTradePassword(db, auth.customerId),
        repo.findGoogle(db, auth.customerId),
      ]);
      const now = clock.now();
      const lockedMinutes =
        tp?.locked_until && tp.locked_until > now
          ? Math.ceil((tp.locked_until.getTime() - now.getTime()) / 60_000)
          : 0;
      return {
        transaction_password: tp ? ('1' as const) : ('0' as const),
        google: google?.enabled_at ? ('1' as const) : ('0' as const),
        locked_minutes: lockedMinutes,
        max_failures: TRADE_PASSWORD_MAX_FAILURES,
        lock_minutes: TRADE_PASSWORD_LOCK_MINUTES,
      };
    },

    /** `/bindmpwd`: set first, confirmed by the login password (decision: no code round-trip). */
    async bind(
      auth: AuthContext,
      body: { password: string; trade_password: string; trade_password2: string },
    ) {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      checkFormat(body.trade_password, body.trade_password2);
      if (await repo.findTradePassword(db, auth.customerId)) refuse('TRADE_PASSWORD_ALREADY_SET');
      if (!(await deps.checkLoginPassword(auth.customerId, body.password))) refuse('OLD_PASSWORD_WRONG');
      const now = clock.now();
      const inserted = await repo.insertTradePassword(db, {
        customer_id: auth.customerId,
        password_hash: await hash(body.trade_password, ARGON2),
        failed_count: 0,
        locked_until: null,
        created_at: now,
        updated_at: now,
      });
      if (!inserted) refuse('TRADE_PASSWORD_ALREADY_SET');
      return { transaction_password: '1' as const };
    },

    /** `/editPasswordTrade`: the current trade password (counted towards the lock-out) and a new one. */
    async change(
      auth: AuthContext,
      body: { old_trade_password: string; trade_password: string; trade_password2: string },
    ) {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      checkFormat(body.trade_password, body.trade_password2);
      await checkTradePassword(auth.customerId, body.old_trade_password);
      if (body.old_trade_password === body.trade_password) refuse('PASSWORD_UNCHANGED');
      await repo.updateTradePassword(db, auth.customerId, {
        password_hash: await hash(body.trade_password, ARGON2),
        failed_count: 0,
        locked_until: null,
        updated_at: clock.now(),
      });
      return { transaction_password: '1' as const };
    },

    /** A new secret to scan (replaces an unconfirmed one); nothing is enabled until confirmed. */
    async googleSecret(auth: AuthContext, label: string) {
      if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
      const existing = await repo.findGoogle(db, auth.customerId);
      if (existing?.enabled_at) return { enabled: '1' as const, secret: '', uri: '' };
      const secret = generateSecret();
      await repo.upsertGooglePending(db, {
        customer_id: auth.customerId,
        secret_sealed: seal(googleKey, secret),
        enabled_at: null,
        last_step: null,
        created_at: clock.now(),
      });
      return { enabled: '0' as const, secret, uri: generateURI({ issuer: TOTP_ISSUER, label, secret }) };
    },

    async googleEnable(auth: AuthContext, code: string) {
      const row = await repo.findGoogle(db, auth.customerId);
      if (row?.enabled_at) refuse('GOOGLE_ALREADY_ENABLED');
      if (!row) refuse('GOOGLE_CODE_WRONG');
      await consumeTotp(auth.customerId, code);
      await repo.updateGoogle(db, auth.customerId, { enabled_at: clock.now() });
      return { google: '1' as const };
    },

    async googleDisable(auth: AuthContext, code: string) {
      const row = await repo.findGoogle(db, auth.customerId);
      if (!row?.enabled_at) refuse('GOOGLE_NOT_ENABLED');
      await consumeTotp(auth.customerId, code);
      await repo.deleteGoogle(db, auth.customerId);
      return { google: '0' as const };
    },
  };
}

export type Security = ReturnType<typeof createSecurity>;
