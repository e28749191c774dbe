import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Answer,
  call,
  outboxCode,
  registerByEmail,
  startTestApp,
  type TestApp,
} from '../../../test/harness.ts';

/**
 * No account enumeration (issue 12 item 7): login, register, reset and code requests answer the
 * same whether or not the account exists — pairs of requests, one for a known address and one for
 * an unknown one, must give identical envelopes — and an unknown identifier counts down and locks
 * out exactly as a known one.
 */
let t: TestApp;
let n = 0;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A registered address and an unknown one, fresh for each test. */
async function pair(): Promise<{ known: string; unknown: string }> {
  n += 1;
  const known = `known${n}@example.com`;
  await registerByEmail(t, known, 'rightpass1');
  // The registration's own code request started a cool-down on the known address for scene register.
  t.clock.advance(61_000);
  return { known, unknown: `unknown${n}@example.com` };
}

/** What a client sees of an answer: everything but nothing that varies per request. */
function seen(answer: Answer) {
  const { status, code, msg, data, reason, params } = answer;
  return { status, code, msg, data, reason, params };
}

const login = (account: string, fields: Record<string, string>) =>
  call(t.app, { call: 'userLogin', fields: { account, ...fields } });
const getCode = (account: string, scene: string) =>
  call(t.app, { method: 'GET', call: 'getCode', fields: { account, scene } });

describe('no account enumeration', () => {
  it('a wrong password counts down and locks out an unknown address exactly as a known one', async () => {
    const { known, unknown } = await pair();
    for (let i = 1; i <= 6; i++) {
      const a = await login(known, { password: 'wrongpass' });
      const b = await login(unknown, { password: 'wrongpass' });
      expect(seen(b)).toEqual(seen(a));
      if (i < 5) expect(a).toMatchObject({ reason: 'LOGIN_FAILED', params: { attemptsLeft: 5 - i } });
      else expect(a).toMatchObject({ reason: 'LOGIN_LOCKED', params: { maxFailures: 5 } });
    }
    // Locked: even the right password waits; after the lock both count from the top again.
    expect((await login(known, { password: 'rightpass1' })).reason).toBe('LOGIN_LOCKED');
    t.clock.advance(15 * 60_000 + 1);
    const a = await login(known, { password: 'wrongpass' });
    const b = await login(unknown, { password: 'wrongpass' });
    expect(seen(b)).toEqual(seen(a));
    expect(a).toMatchObject({ reason: 'LOGIN_FAILED', params: { attemptsLeft: 4 } });
    expect((await login(known, { password: 'rightpass1' })).code).toBe(1);
  });

  it('counts an unknown identifier by its normalised form (case and spaces do not reset the count)', async () => {
    const { unknown } = await pair();
    expect(await login(unknown, { password: 'x1x1x1' })).toMatchObject({ params: { attemptsLeft: 4 } });
    expect(await login(` ${unknown.toUpperCase()} `, { password: 'x1x1x1' })).toMatchObject({
      params: { attemptsLeft: 3 },
    });
    const keys = await t.db.selectFrom('accounts_login_guard').select('key_hash').execute();
    // Stored as an HMAC: the address itself is nowhere in the table.
    expect(JSON.stringify(keys)).not.toContain('example.com');
  });

  it('code requests answer "code sent" for known and unknown addresses in every scene', async () => {
    const { known, unknown } = await pair();
    for (const scene of ['register', 'reset', 'login']) {
      const a = await getCode(known, scene);
      const b = await getCode(unknown, scene);
      expect(seen(b)).toEqual(seen(a));
      expect(a).toMatchObject({ code: 1, data: { expires_in: 600, resend_in: 60 } });
      // The cool-down is the same too.
      const again = [await getCode(known, scene), await getCode(unknown, scene)];
      expect(seen(again[1] as Answer)).toEqual(seen(again[0] as Answer));
      expect(again[0]).toMatchObject({ reason: 'CODE_COOLDOWN' });
    }
    // The owner of a taken address hears that someone tried, and gets no code to register with.
    const toKnown = await t.db
      .selectFrom('notify_outbox')
      .select('body')
      .where('recipient', '=', known)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    expect(toKnown.some((m) => /already has one/.test(m.body) && !/\d{6}/.test(m.body))).toBe(true);
    const toUnknown = await t.db
      .selectFrom('notify_outbox')
      .select('body')
      .where('recipient', '=', unknown)
      .execute();
    expect(toUnknown.filter((m) => /no account uses it/.test(m.body))).toHaveLength(2);
  });

  it('register, reset and code login with a wrong code answer the same for known and unknown addresses', async () => {
    const { known, unknown } = await pair();
    const register = (account: string, code: string) =>
      call(t.app, {
        call: 'userRegister',
        fields: { type: 'email', account, code, password: 'newpass1', password2: 'newpass1', agree: '1' },
      });
    const reset = (account: string, code: string) =>
      call(t.app, {
        call: 'updatePassword',
        fields: { account, code, password: 'newpass1', password2: 'newpass1' },
      });
    // No code asked for yet (the known address's registration code is spent).
    expect(seen(await register(unknown, '123456'))).toEqual(seen(await register(known, '123456')));
    expect(seen(await reset(unknown, '123456'))).toEqual(seen(await reset(known, '123456')));
    expect(seen(await login(unknown, { code: '123456' }))).toEqual(
      seen(await login(known, { code: '123456' })),
    );
    // With a code asked for: the tries count down alike.
    for (const scene of ['register', 'reset']) {
      await getCode(known, scene);
      await getCode(unknown, scene);
    }
    // The login code last and a second later, so it is the known address's latest message.
    t.clock.advance(1000);
    await getCode(known, 'login');
    await getCode(unknown, 'login');
    const wrong = async (code: string) => {
      const pairs = [
        [await register(known, code), await register(unknown, code)],
        [await reset(known, code), await reset(unknown, code)],
        [await login(known, { code }), await login(unknown, { code })],
      ];
      for (const [a, b] of pairs) expect(seen(b as Answer)).toEqual(seen(a as Answer));
      return pairs.map(([a]) => a?.reason);
    };
    // A code that the known address's outbox does not hold either (its register request got a notice).
    const sent = await outboxCode(t.db, known);
    const guess = sent === '000000' ? '000001' : '000000';
    expect(await wrong(guess)).toEqual(['CODE_WRONG', 'CODE_WRONG', 'CODE_WRONG']);
    // The real login code still works for the owner.
    expect((await login(known, { code: sent })).code).toBe(1);
  });

  it('a disabled account says so only to who proved the password', async () => {
    const { known, unknown } = await pair();
    await t.db
      .updateTable('accounts_customer')
      .set({ status: 'disabled' })
      .where('email', '=', known)
      .execute();
    expect(seen(await login(unknown, { password: 'wrongpass' }))).toEqual(
      seen(await login(known, { password: 'wrongpass' })),
    );
    expect((await login(known, { password: 'rightpass1' })).reason).toBe('ACCOUNT_DISABLED');
  });

  it('measures login time for known and unknown addresses (reported, not asserted)', async () => {
    const { known, unknown } = await pair();
    const time = async (account: string) => {
      const started = process.hrtime.bigint();
      await login(account, { password: 'wrongpass' });
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const knownMs: number[] = [];
    const unknownMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Alternate, and stay under the lock-out: each round is a fresh lock window.
      if (i % 4 === 0) t.clock.advance(15 * 60_000 + 1);
      knownMs.push(await time(known));
      unknownMs.push(await time(unknown));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `login timing over 20 wrong-password logins each: known median ${median(knownMs).toFixed(1)} ms ` +
        `(mean ${mean(knownMs).toFixed(1)}), unknown median ${median(unknownMs).toFixed(1)} ms ` +
        `(mean ${mean(unknownMs).toFixed(1)}), difference of medians ${(median(unknownMs) - median(knownMs)).toFixed(1)} ms`,
    );
    expect(knownMs).toHaveLength(20);
  });
});
