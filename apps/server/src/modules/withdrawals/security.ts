import { hash, verify } from '@node-rs/argon2';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import { type Db, detached, inTransaction, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { open, seal } from '../../lib/crypto.ts';
import { ARGON2 } from '../accounts/index.ts';
import * as repo from './repo.ts';

type GoogleRow = NonNullable<Awaited<ReturnType<typeof repo.findGoogle>>>;

/** Trade password: exactly 6 digits (spec 5); lock-out after repeated failures. */
export const TRADE_PASSWORD_PATTERN = /^\d{6}$/;
export const TRADE_PASSWORD_MAX_FAILURES = 5;
export const TRADE_PASSWORD_LOCK_MINUTES = 15;
/** TOTP: 30 s steps, one step either side accepted, each step usable once. */
const TOTP_TOLERANCE_S = 30;
const TOTP_ISSUER = 'Bourse';
/** An attempt finding the count full of running checks waits up to this long (ms) for one to end. */
const RESERVE_WAIT_MAX_MS = 10_000;
const RESERVE_PAUSE_MAX_MS = 100;

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

  /**
   * Checks the trade password. The attempt is reserved before the slow hash check — one atomic
   * update, none while locked or while `TRADE_PASSWORD_MAX_FAILURES` attempts are counted — so
   * concurrent guesses get at most that many checks per lock-out; a right password clears the count,
   * a wrong one locks the row once the count is full. Attempts beyond it while those checks run wait
   * for them (a burst of right ones goes through), and see the lock if one sets it. These writes are
   * bookkeeping, not the request's effect: `detached`, they never record an idempotent request's
   * claim (a refused request stays retryable).
   */
  async function checkTradePassword(customerId: string, password: string): Promise<void> {
    const lockMs = TRADE_PASSWORD_LOCK_MINUTES * 60_000;
    const minutesTo = (until: Date, now: Date) =>
      Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
    let reserved: { failed_count: number; password_hash: string } | null = null;
    for (let waited = 0; ; ) {
      const now = clock.now();
      reserved = await detached(() =>
        repo.reserveTradePasswordAttempt(db, {
          customerId,
          now,
          max: TRADE_PASSWORD_MAX_FAILURES,
          staleBefore: new Date(now.getTime() - lockMs),
        }),
      );
      if (reserved) break;
      const row = await repo.findTradePassword(db, customerId);
      if (!row) refuse('TRADE_PASSWORD_NOT_SET');
      if (row.locked_until && row.locked_until > now) {
        refuse('TRADE_PASSWORD_LOCKED', {
          minutes: minutesTo(row.locked_until, now),
          maxFailures: TRADE_PASSWORD_MAX_FAILURES,
        });
      }
      // Not locked: the count is full of checks running now. Wait for them, not for ever.
      if (waited >= RESERVE_WAIT_MAX_MS) {
        refuse('TRADE_PASSWORD_LOCKED', {
          minutes: minutesTo(new Date(row.updated_at.getTime() + lockMs), now),
          maxFailures: TRADE_PASSWORD_MAX_FAILURES,
        });
      }
      const pause = Math.min(RESERVE_PAUSE_MAX_MS, 5 + waited / 4) * (0.5 + Math.random());
      await new Promise((r) => setTimeout(r, pause));
      waited += pause;
    }
    const now = clock.now();
    if (TRADE_PASSWORD_PATTERN.test(password) && (await verify(reserved.password_hash, password))) {
      await detached(() => repo.clearTradePasswordFailures(db, customerId, now));
      return;
    }
    await detached(() =>
      repo.lockTradePasswordIfFull(db, {
        customerId,
        now,
        max: TRADE_PASSWORD_MAX_FAILURES,
        lockUntil: new Date(now.getTime() + lockMs),
      }),
    );
    const failures = reserved.failed_count;
    if (failures >= TRADE_PASSWORD_MAX_FAILURES) {
      refuse('TRADE_PASSWORD_LOCKED', {
        minutes: TRADE_PASSWORD_LOCK_MINUTES,
        maxFailures: TRADE_PASSWORD_MAX_FAILURES,
      });
    }
    refuse('TRADE_PASSWORD_WRONG', { attemptsLeft: TRADE_PASSWORD_MAX_FAILURES - failures });
  }

  /**
   * The Google code when the customer enabled the authenticator. With `tx` (a withdrawal request)
   * the row is locked and the step recorded in the caller's transaction, so the step commits with
   * the effect — and with the request's claim — or not at all; without, in a transaction of its own.
   */
  async function checkGoogle(customerId: string, code: string | undefined, tx?: Tx): Promise<void> {
    if (!tx) return inTransaction(db, (own) => checkGoogle(customerId, code, own));
    const row = await repo.findGoogle(tx, customerId, { lock: true });
    if (!row?.enabled_at) return;
    if (!code) refuse('GOOGLE_CODE_REQUIRED');
    if (!(await useStep(tx, row, code))) refuse('GOOGLE_CODE_WRONG');
  }

  /** One use per time step: `row` locked in `tx`, its step recorded there when the code is right. */
  async function useStep(tx: Tx, row: GoogleRow, code: string): Promise<boolean> {
    if (!/^\d{6}$/.test(code)) return false;
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
    await repo.updateGoogle(tx, row.customer_id, { last_step: step });
    return true;
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
      if (!/^\d{6}$/.test(code)) refuse('GOOGLE_CODE_WRONG');
      // The step and the switch commit together (and with an idempotent request's claim).
      await inTransaction(db, async (tx) => {
        const locked = await repo.findGoogle(tx, auth.customerId, { lock: true });
        if (!locked) refuse('GOOGLE_CODE_WRONG');
        if (locked.enabled_at) refuse('GOOGLE_ALREADY_ENABLED');
        if (!(await useStep(tx, locked, code))) refuse('GOOGLE_CODE_WRONG');
        await repo.updateGoogle(tx, auth.customerId, { enabled_at: clock.now() });
      });
      return { google: '1' as const };
    },

    async googleDisable(auth: AuthContext, code: string) {
      const row = await repo.findGoogle(db, auth.customerId);
      if (!row?.enabled_at) refuse('GOOGLE_NOT_ENABLED');
      if (!/^\d{6}$/.test(code)) refuse('GOOGLE_CODE_WRONG');
      await inTransaction(db, async (tx) => {
        const locked = await repo.findGoogle(tx, auth.customerId, { lock: true });
        if (!locked?.enabled_at) refuse('GOOGLE_NOT_ENABLED');
        if (!(await useStep(tx, locked, code))) refuse('GOOGLE_CODE_WRONG');
        await repo.deleteGoogle(tx, auth.customerId);
      });
      return { google: '0' as const };
    },
  };
}

export type Security = ReturnType<typeof createSecurity>;
