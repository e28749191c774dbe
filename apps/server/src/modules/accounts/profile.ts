import { catalogs, interpolate, lookup } from '@bourse/i18n';
import {
  type BindContactBody,
  type BindContactData,
  type CheckSecurityAnswerData,
  type DevicesData,
  isLang,
  type Lang,
  PROFILE_LIMITS,
  type SecurityCenterData,
  type SecurityItem,
  type SecurityQuestion,
  type SetPhraseBody,
  type SetSecurityQuestionsBody,
} from '@bourse/protocol';
import { hash, verify } from '@node-rs/argon2';
import type { Logger } from 'pino';
import { type Db, inTransaction, isUniqueViolation, type Tx } from '../../db/database.ts';
import type { AuthContext } from '../../http/context.ts';
import { refuse } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import type { Notifier } from '../notify/index.ts';
import { ARGON2 } from './argon.ts';
import { type CodeDeps, type CodeKey, consumeCodes } from './codes.ts';
import { type Identity, parseEmail, parseName, parsePhone } from './identity.ts';
import * as repo from './repo.ts';
import { describeUserAgent } from './user-agent.ts';

/**
 * The profile and security centre (issue 15, point 5): the account name, binding or changing the
 * phone and e-mail, security questions, the anti-phishing phrase, signed-in devices and the
 * security score. Every change is the signed-in customer's own, needs a real (not demo) account,
 * writes a security event in its transaction and tells the customer after it commits.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The score's items, most protective first: `next` is the first one not done. */
const POINTS = {
  login_password: 10,
  google: 15,
  trade_password: 15,
  verification: 20,
  phone: 10,
  email: 10,
  phrase: 10,
  questions: 10,
} as const;

export type ProfileDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  notifier: Notifier;
  codes: CodeDeps;
  audit?: AuditLog;
  sessionsEnded(customerId: string): void;
  hasTradePassword?: (customerId: string) => Promise<boolean>;
  hasGoogleAuth?: (customerId: string) => Promise<boolean>;
  /** The verification level: 0 none, 1 primary, 2 advanced (modules/verification, through wiring.ts). */
  verificationTier?: (customerId: string) => Promise<number>;
};

export type ProfileMeta = { ip: string };

/** What a security answer is compared as: Unicode NFKC, trimmed, inner spaces collapsed, lower case. */
export function normalizeAnswer(raw: string): string {
  return raw.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

// Control (Cc), format (Cf: bidi overrides, zero-width), separators other than the space (Zl, Zp),
// private-use and unassigned code points: nothing a customer could not read back as typed.
const PHRASE_FORBIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/u;

/** The phrase as stored, or a refusal naming the rule. An empty phrase removes it. */
export function normalizePhrase(raw: string): string {
  const phrase = raw.normalize('NFKC').trim().replace(/ {2,}/g, ' ');
  const { phraseMin: min, phraseMax: max } = PROFILE_LIMITS;
  const length = [...phrase].length;
  if (phrase === '') return '';
  if (PHRASE_FORBIDDEN.test(phrase) || length < min || length > max) {
    refuse('PHRASE_INVALID', { min, max });
  }
  return phrase;
}

/** A text of the `profile` catalog, for the server's messages (the app reads the same catalog). */
export function profileText(lang: string, key: string, params?: Record<string, string | number>): string {
  const l: Lang = isLang(lang) ? lang : 'en';
  const text = lookup(catalogs[l].profile, key) ?? lookup(catalogs.en.profile, key) ?? key;
  return interpolate(text, params);
}

/** An address shown in a notice without giving it away: `a***@example.com`, `+44 ***3456`. */
export function maskContact(kind: 'email' | 'phone', value: string): string {
  if (kind === 'email') {
    const [local = '', domain = ''] = value.split('@');
    return `${local.slice(0, 1)}***@${domain}`;
  }
  return `***${value.slice(-4)}`;
}

export function createProfile(deps: ProfileDeps) {
  const { db, clock } = deps;

  function real(auth: AuthContext): void {
    if (auth.isDemo) refuse('REAL_ACCOUNT_REQUIRED');
  }

  async function customerOf(q: Db | Tx, customerId: string, lock = false) {
    const row = await repo.findCustomer(q, { id: customerId }, { lock });
    if (!row) refuse('SESSION_EXPIRED');
    return row;
  }

  async function event(tx: Tx, customerId: string, kind: string, detail: string, meta: ProfileMeta) {
    const now = clock.now();
    await repo.insertSecurityEvent(tx, {
      id: newId('sev', now.getTime()),
      customer_id: customerId,
      kind,
      detail,
      ip: meta.ip.slice(0, 64),
      created_at: now,
    });
  }

  /** Tells the customer at their contact (email, else phone), in their language, after a commit. */
  async function tell(
    customer: { id: string; email: string | null; phone: string | null; language: string },
    key: string,
    params: Record<string, string | number> = {},
    to?: { channel: 'email' | 'sms'; recipient: string },
  ): Promise<void> {
    const target =
      to ??
      (customer.email
        ? { channel: 'email' as const, recipient: customer.email }
        : customer.phone
          ? { channel: 'sms' as const, recipient: customer.phone }
          : null);
    if (!target) return;
    await deps.notifier.send({
      ...target,
      customerId: customer.id,
      subject: profileText(customer.language, `message.${key}Subject`, params),
      body: profileText(customer.language, `message.${key}Body`, params),
    });
  }

  async function checkLoginPassword(passwordHash: string | null, password: string): Promise<void> {
    if (!passwordHash || !(await verify(passwordHash, password))) refuse('OLD_PASSWORD_WRONG');
  }

  return {
    async securityCenter(auth: AuthContext): Promise<SecurityCenterData> {
      const customer = await customerOf(db, auth.customerId);
      const [security, trade, google, tier] = await Promise.all([
        repo.findSecurity(db, customer.id),
        deps.hasTradePassword?.(customer.id) ?? false,
        deps.hasGoogleAuth?.(customer.id) ?? false,
        deps.verificationTier?.(customer.id) ?? 0,
      ]);
      const item = (
        key: SecurityItem['key'],
        done: boolean,
        link: string,
        earned?: number,
      ): SecurityItem => ({
        key,
        points: POINTS[key],
        earned: earned ?? (done ? POINTS[key] : 0),
        done,
        link,
      });
      const items: SecurityItem[] = [
        item('login_password', customer.password_hash !== null, '/editPassword'),
        item('google', google, '/googleCode'),
        item('trade_password', trade, trade ? '/editPasswordTrade' : '/bindmpwd'),
        item(
          'verification',
          tier >= 2,
          '/authentication',
          tier >= 2 ? POINTS.verification : tier === 1 ? POINTS.verification / 2 : 0,
        ),
        item('phone', customer.phone !== null, '/mobile'),
        item('email', customer.email !== null, '/email'),
        item('phrase', Boolean(security?.phrase), '/setting?panel=phrase'),
        item('questions', Boolean(security?.questions_set_at), '/setting?panel=questions'),
      ];
      const changedAt = security?.name_changed_at ?? null;
      const nextChange = changedAt ? changedAt.getTime() + PROFILE_LIMITS.nameChangeDays * DAY_MS : null;
      return {
        score: items.reduce((sum, i) => sum + i.earned, 0),
        max: items.reduce((sum, i) => sum + i.points, 0),
        items,
        next: items.find((i) => !i.done) ?? null,
        name: customer.name ?? '',
        name_change_at: customer.name && nextChange && nextChange > clock.now().getTime() ? nextChange : null,
        email: customer.email ?? '',
        phone: customer.phone ?? '',
        area_code: customer.area_code,
        questions_set: Boolean(security?.questions_set_at),
        phrase: security?.phrase ?? '',
        verification_tier: tier,
      };
    },

    /**
     * Sets or changes the account name (a login identifier, unique without regard to case). The
     * first setting is free; after that it may change once per `nameChangeDays`. Two customers
     * racing for one name: the unique index lets one win, the other is refused NAME_TAKEN.
     */
    async setUsername(auth: AuthContext, raw: string, meta: ProfileMeta): Promise<{ name: string }> {
      real(auth);
      const name = parseName(raw);
      if (!name) refuse('NAME_INVALID', { min: PROFILE_LIMITS.nameMin, max: PROFILE_LIMITS.nameMax });
      const now = clock.now();
      try {
        await inTransaction(db, async (tx) => {
          const security = await repo.lockSecurity(tx, auth.customerId, now);
          const customer = await customerOf(tx, auth.customerId, true);
          if (customer.name === name) refuse('NAME_UNCHANGED');
          const since = security.name_changed_at;
          if (customer.name && since) {
            const waitMs = since.getTime() + PROFILE_LIMITS.nameChangeDays * DAY_MS - now.getTime();
            if (waitMs > 0) refuse('NAME_CHANGE_TOO_SOON', { days: Math.ceil(waitMs / DAY_MS) });
          }
          await repo.updateCustomer(tx, customer.id, { name, updated_at: now });
          await repo.updateSecurity(tx, customer.id, { name_changed_at: now, updated_at: now });
          await event(tx, customer.id, customer.name ? 'name_changed' : 'name_set', name, meta);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'accounts_customer_name_key')) refuse('NAME_TAKEN');
        throw error;
      }
      return { name };
    },

    /**
     * Binds a missing phone or e-mail (a code to the new contact) or changes one (a code to the
     * current contact too, checked together). The new address is unique: a taken one got a notice,
     * not a code, so its owner-to-be answers as with a wrong code; a race to one address lets the
     * unique index pick one winner (CONTACT_TAKEN for the other, who proved they hold the address).
     * After the commit the old contact is told of the change and the new one of the binding.
     */
    async bindContact(auth: AuthContext, body: BindContactBody, meta: ProfileMeta): Promise<BindContactData> {
      real(auth);
      const identity: Identity =
        body.type === 'email'
          ? { kind: 'email', email: parseEmail(body.account) ?? refuse('EMAIL_INVALID') }
          : (parsePhone(body.account, { areaCode: body.area_code }) ?? refuse('PHONE_INVALID'));
      const target =
        identity.kind === 'email' ? identity.email : identity.kind === 'phone' ? identity.phone : '';
      const customer = await customerOf(db, auth.customerId);
      const current = body.type === 'email' ? customer.email : customer.phone;
      if (current === target) refuse('CONTACT_UNCHANGED');
      const codes: Array<{ target: string; scene: CodeKey; code: string; field: string }> = [];
      if (current !== null) {
        if (body.old_code === undefined || body.old_code === '')
          refuse('FIELD_REQUIRED', { field: 'old_code' });
        codes.push({ target: current, scene: 'unbind', code: body.old_code, field: 'old_code' });
      }
      codes.push({ target, scene: `bind:${customer.id}`, code: body.code, field: 'code' });
      await consumeCodes(deps.codes, codes);
      const now = clock.now();
      const kind = body.type;
      const after = await inTransaction(db, async (tx) => {
        const locked = await customerOf(tx, customer.id, true);
        // Changed by a concurrent request since the codes were checked: the old code was for another address.
        if ((kind === 'email' ? locked.email : locked.phone) !== current) refuse('CODE_EXPIRED');
        const patch =
          identity.kind === 'phone'
            ? {
                phone: identity.phone,
                area_code: identity.areaCode,
                // Nationality is fixed: a phone only fills one that was never recorded.
                country: locked.country || identity.country,
              }
            : { email: target };
        await repo.updateCustomer(tx, locked.id, { ...patch, updated_at: now });
        await event(
          tx,
          locked.id,
          `${kind}_${current ? 'changed' : 'bound'}`,
          maskContact(kind, target),
          meta,
        );
        return { ...locked, ...patch };
      }).catch((error: unknown) => {
        if (isUniqueViolation(error, `accounts_customer_${kind}_key`)) refuse('CONTACT_TAKEN');
        throw error;
      });
      const channel = kind === 'email' ? ('email' as const) : ('sms' as const);
      const label = profileText(customer.language, `message.kind.${kind}`);
      if (current) {
        await tell(
          customer,
          'contactChanged',
          { kind: label, to: maskContact(kind, target) },
          { channel, recipient: current },
        );
      }
      await tell(customer, 'contactBound', { kind: label }, { channel, recipient: target });
      deps.log.info({ customer: customer.id, kind, changed: current !== null }, 'contact bound');
      return { email: after.email ?? '', phone: after.phone ?? '', area_code: after.area_code };
    },

    /**
     * Sets (or replaces) all three answers, confirmed with the login password. Answers are
     * normalised and stored as argon2id hashes, never in plain; they recover nothing by themselves
     * (only staff check them, `checkAnswer`).
     */
    async setSecurityQuestions(auth: AuthContext, body: SetSecurityQuestionsBody, meta: ProfileMeta) {
      real(auth);
      const { answerMin: min, answerMax: max } = PROFILE_LIMITS;
      const answers = [body.answer1, body.answer2, body.answer3].map((raw, i) => {
        const answer = normalizeAnswer(raw);
        const length = [...answer].length;
        if (length < min || length > max) refuse('ANSWER_LENGTH', { question: i + 1, min, max });
        return answer;
      });
      const customer = await customerOf(db, auth.customerId);
      await checkLoginPassword(customer.password_hash, body.password);
      const [h1, h2, h3] = await Promise.all(answers.map((a) => hash(a, ARGON2)));
      const now = clock.now();
      const replaced = await inTransaction(db, async (tx) => {
        const security = await repo.lockSecurity(tx, customer.id, now);
        await repo.updateSecurity(tx, customer.id, {
          answer1_hash: h1 ?? null,
          answer2_hash: h2 ?? null,
          answer3_hash: h3 ?? null,
          questions_set_at: now,
          updated_at: now,
        });
        await event(tx, customer.id, 'questions_set', '', meta);
        return security.questions_set_at !== null;
      });
      await tell(customer, 'questionsSet');
      return { questions_set: true, replaced };
    },

    /** Sets, changes or (empty) removes the anti-phishing phrase, confirmed with the login password. */
    async setPhrase(auth: AuthContext, body: SetPhraseBody, meta: ProfileMeta) {
      real(auth);
      const phrase = normalizePhrase(body.phrase);
      const customer = await customerOf(db, auth.customerId);
      await checkLoginPassword(customer.password_hash, body.password);
      const now = clock.now();
      await inTransaction(db, async (tx) => {
        await repo.lockSecurity(tx, customer.id, now);
        await repo.updateSecurity(tx, customer.id, {
          phrase: phrase || null,
          phrase_set_at: phrase ? now : null,
          updated_at: now,
        });
        await event(tx, customer.id, phrase ? 'phrase_set' : 'phrase_removed', '', meta);
      });
      // Sent after the commit, so it carries the new phrase: the customer sees it at once.
      await tell(customer, phrase ? 'phraseSet' : 'phraseRemoved');
      return { phrase };
    },

    /** The customer's sessions that still hold: when and where they started, browser and OS, this one marked. */
    async devices(auth: AuthContext): Promise<DevicesData> {
      const rows = await repo.activeSessions(db, auth.customerId, clock.now());
      return {
        list: rows.map((r) => ({
          id: r.id,
          created_at: r.created_at.getTime(),
          ip: r.ip,
          ...describeUserAgent(r.user_agent),
          current: r.id === auth.sessionId,
        })),
      };
    },

    /**
     * Ends one other session (this one ends by logging out), or every other one. Its HTTP calls are
     * refused from then on and its websocket leaves its private channels (`sessionsEnded`).
     */
    async revokeDevices(auth: AuthContext, which: { id: string } | 'others', meta: ProfileMeta) {
      const now = clock.now();
      const customer = await customerOf(db, auth.customerId);
      let described = '';
      if (which !== 'others') {
        if (which.id === auth.sessionId) refuse('DEVICE_CURRENT');
        const row = await repo.findSession(db, { customerId: customer.id, id: which.id });
        if (!row || row.revoked_at !== null || row.expires_at <= now) refuse('NOT_FOUND');
        const ua = describeUserAgent(row.user_agent);
        described = `${ua.browser}, ${ua.os}, ${row.ip}`;
      }
      const ended = await inTransaction(db, async (tx) => {
        const count = await repo.revokeSessions(tx, {
          customerId: customer.id,
          reason: 'logout',
          at: now,
          ...(which === 'others' ? { exceptId: auth.sessionId } : { onlyId: which.id }),
        });
        if (count > 0) {
          await event(
            tx,
            customer.id,
            which === 'others' ? 'devices_revoked' : 'device_revoked',
            described || String(count),
            meta,
          );
        }
        return count;
      });
      if (ended > 0) {
        deps.sessionsEnded(customer.id);
        await (which === 'others'
          ? tell(customer, 'devicesRevoked', { n: ended })
          : tell(customer, 'deviceRevoked', { device: described }));
      }
      return { ended };
    },

    /**
     * Staff (support, compliance): does what a caller says match the customer's stored answer?
     * Answers only match / no match, never the answer; each check is audited with the staff
     * member's reason in the same transaction and counted: at most `answerChecksPerHour` per
     * customer. It changes nothing and grants nothing: an additional check, never a recovery.
     */
    async checkAnswer(
      staffId: string,
      input: { customerId: string; question: SecurityQuestion; answer: string; reason: string },
    ): Promise<CheckSecurityAnswerData> {
      const reason = input.reason.trim();
      if (reason === '') refuse('FIELD_REQUIRED', { field: 'reason' });
      const { answerMin: min, answerMax: max, answerChecksPerHour } = PROFILE_LIMITS;
      const answer = normalizeAnswer(input.answer);
      if ([...answer].length < min || [...answer].length > max) {
        refuse('ANSWER_LENGTH', { question: input.question, min, max });
      }
      if (!deps.audit) throw new Error('checkAnswer needs the audit log');
      const audit = deps.audit;
      const now = clock.now();
      return inTransaction(db, async (tx) => {
        const customer = await repo.findCustomer(tx, { id: input.customerId });
        if (!customer) refuse('NOT_FOUND');
        const security = await repo.findSecurity(tx, customer.id, { lock: true });
        if (!security?.questions_set_at) refuse('SECURITY_QUESTIONS_NOT_SET');
        const used = await repo.answerChecksSince(tx, customer.id, new Date(now.getTime() - HOUR_MS));
        if (used >= answerChecksPerHour) refuse('ANSWER_CHECKS_EXHAUSTED', { max: answerChecksPerHour });
        const stored = [security.answer1_hash, security.answer2_hash, security.answer3_hash][
          input.question - 1
        ];
        const match = stored ? await verify(stored, answer) : false;
        await repo.insertAnswerCheck(tx, {
          id: newId('sac', now.getTime()),
          customer_id: customer.id,
          staff_id: staffId,
          question: input.question,
          matched: match,
          created_at: now,
        });
        await audit.record(tx, {
          actorId: staffId,
          action: 'customer.security_answer_check',
          targetType: 'customer',
          targetId: customer.id,
          after: { question: input.question, match },
          reason,
        });
        return { match, checks_left: answerChecksPerHour - used - 1 };
      });
    },
  };
}

export type Profile = ReturnType<typeof createProfile>;

/** The notifier's phrase port (wiring.ts): the phrase of the customer a message is for. */
export function antiPhishingPhrases(db: Db) {
  return {
    phraseFor(input: { customerId?: string; recipient: string }): Promise<string | null> {
      return repo.phraseOf(
        db,
        input.customerId ? { customerId: input.customerId } : { recipient: input.recipient },
      );
    },
  };
}
