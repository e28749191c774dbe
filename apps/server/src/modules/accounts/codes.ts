import { randomInt } from 'node:crypto';
import { translate } from '@bourse/i18n';
import type { CodeScene, Lang } from '@bourse/protocol';
import { sql } from 'kysely';
import { type Db, inTransaction } from '../../db/database.ts';
import { refuse } from '../../http/refusal.ts';
import type { Clock } from '../../lib/clock.ts';
import { hmac, safeEqual } from '../../lib/crypto.ts';
import { newId } from '../../lib/ids.ts';
import type { Notifier } from '../notify/index.ts';
import * as repo from './repo.ts';

/** Verification codes: 6 digits, stored as an HMAC, valid 10 minutes, 5 tries, one per 60 s. */
export const CODE_LIMITS = {
  digits: 6,
  ttlMs: 10 * 60 * 1000,
  maxTries: 5,
  resendMs: 60 * 1000,
} as const;

export type CodeDeps = { db: Db; clock: Clock; secret: string; notifier: Notifier };

/**
 * What a code is filed under beside its target: the scene, or for `bind` the scene and the customer
 * binding (`bind:<customerId>`), so two customers' codes for one new address never supersede each
 * other and a code is good only for the customer who asked for it.
 */
export type CodeKey = CodeScene | `bind:${string}`;

function hashCode(secret: string, input: { target: string; scene: string; code: string }): string {
  return hmac(secret, `code|${input.target}|${input.scene}|${input.code}`);
}

/**
 * Files a new code for (target, scene) and sends it. With `notice`, the code is filed the same way
 * (so the cool-down, the tries and the answer are those of any request) but never sent: the target
 * gets a notice instead — `exists`: someone asked to register an address that already has an
 * account; `unknown`: someone asked for a sign-in or reset code for an address without one.
 */
export async function issueCode(
  deps: CodeDeps,
  input: {
    target: string;
    channel: 'email' | 'sms';
    scene: CodeKey;
    lang: Lang;
    notice?: 'exists' | 'unknown';
    /** The customer the message is for (its anti-phishing phrase), when the target is not theirs yet. */
    customerId?: string;
  },
): Promise<{ expires_in: number; resend_in: number }> {
  const code = String(randomInt(0, 10 ** CODE_LIMITS.digits)).padStart(CODE_LIMITS.digits, '0');
  const now = deps.clock.now();
  await inTransaction(deps.db, async (tx) => {
    // One sender per (target, scene) at a time, so the cool-down cannot be raced.
    await sql`select pg_advisory_xact_lock(hashtext(${`${input.target}|${input.scene}`}))`.execute(tx);
    const last = await repo.latestCode(tx, { target: input.target, scene: input.scene });
    const waitMs = last ? last.created_at.getTime() + CODE_LIMITS.resendMs - now.getTime() : 0;
    if (waitMs > 0) refuse('CODE_COOLDOWN', { seconds: Math.ceil(waitMs / 1000) });
    await repo.supersedeCodes(tx, { target: input.target, scene: input.scene, at: now });
    await repo.insertCode(tx, {
      id: newId('vcd', now.getTime()),
      target: input.target,
      scene: input.scene,
      code_hash: hashCode(deps.secret, { ...input, code }),
      attempts: 0,
      expires_at: new Date(now.getTime() + CODE_LIMITS.ttlMs),
      consumed_at: null,
      created_at: now,
    });
  });
  const minutes = CODE_LIMITS.ttlMs / 60_000;
  const forCustomer = input.customerId ? { customerId: input.customerId } : {};
  await deps.notifier.send(
    input.notice
      ? {
          channel: input.channel,
          recipient: input.target,
          subject: translate(input.lang, 'message.noticeSubject'),
          body: translate(
            input.lang,
            input.notice === 'exists' ? 'message.noticeExists' : 'message.noticeUnknown',
          ),
        }
      : {
          channel: input.channel,
          recipient: input.target,
          subject: translate(input.lang, 'message.codeSubject'),
          body: translate(input.lang, 'message.codeBody', { code, minutes }),
          code,
          ...forCustomer,
        },
  );
  return { expires_in: CODE_LIMITS.ttlMs / 1000, resend_in: CODE_LIMITS.resendMs / 1000 };
}

/**
 * Checks and consumes a code in its own transaction, so a wrong try is counted even though the
 * request is refused. A consumed, superseded or expired code is refused the same way.
 */
export async function consumeCode(
  deps: CodeDeps,
  input: { target: string; scene: CodeKey; code: string },
): Promise<void> {
  await consumeCodes(deps, [input]);
}

type Check = { refusal: 'CODE_EXPIRED' | 'CODE_TRIES_EXHAUSTED' | 'CODE_WRONG' | null; triesLeft?: number };

/**
 * Several codes that count only together (changing a contact: one to the old, one to the new):
 * all are checked in one transaction and consumed only if every one is right, so a typo in one does
 * not burn the other. A wrong one counts a try on that code. The refusal names the first failing
 * code's `field` (the caller's field name) beside the usual parameters.
 */
export async function consumeCodes(
  deps: CodeDeps,
  inputs: ReadonlyArray<{ target: string; scene: CodeKey; code: string; field?: string }>,
): Promise<void> {
  const now = deps.clock.now();
  const outcomes = await inTransaction(deps.db, async (tx) => {
    const checks: Check[] = [];
    const good: string[] = [];
    for (const input of inputs) {
      const row = await repo.latestCode(tx, { target: input.target, scene: input.scene, lock: true });
      if (!row || row.consumed_at !== null || row.expires_at <= now) {
        checks.push({ refusal: 'CODE_EXPIRED' });
      } else if (row.attempts >= CODE_LIMITS.maxTries) {
        checks.push({ refusal: 'CODE_TRIES_EXHAUSTED' });
      } else if (!safeEqual(row.code_hash, hashCode(deps.secret, input))) {
        const attempts = row.attempts + 1;
        await repo.updateCode(tx, row.id, { attempts });
        checks.push(
          attempts >= CODE_LIMITS.maxTries
            ? { refusal: 'CODE_TRIES_EXHAUSTED' }
            : { refusal: 'CODE_WRONG', triesLeft: CODE_LIMITS.maxTries - attempts },
        );
      } else {
        checks.push({ refusal: null });
        good.push(row.id);
      }
    }
    if (good.length === inputs.length) {
      for (const id of good) await repo.updateCode(tx, id, { consumed_at: now });
    }
    return checks;
  });
  const index = outcomes.findIndex((o) => o.refusal !== null);
  const failed = outcomes[index];
  if (!failed?.refusal) return;
  const field = inputs[index]?.field;
  const named: Record<string, string> = field ? { field } : {};
  if (failed.refusal === 'CODE_WRONG') refuse('CODE_WRONG', { triesLeft: failed.triesLeft ?? 0, ...named });
  if (failed.refusal === 'CODE_TRIES_EXHAUSTED')
    refuse('CODE_TRIES_EXHAUSTED', { maxTries: CODE_LIMITS.maxTries, ...named });
  refuse(failed.refusal, named);
}
