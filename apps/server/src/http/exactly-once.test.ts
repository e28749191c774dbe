import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../test/harness.ts';
import { customer, fund, ledgerOf, USDT } from '../modules/assets/testing.ts';
import { adminCall, type StaffLogin, staffSession } from '../modules/staff/testing.ts';
import type { IdempotencyStore } from './idempotency.ts';

/**
 * Exactly once over HTTP. `crash` makes the next request behave as if the process died right after
 * its transaction committed: the answer is never stored (nor sent, for our purpose) and the key is
 * let go, as a killed process's lock is. `recordClaims: false` is the control: the claim is no longer
 * written with the effect — the retry must then run twice, which shows the tests measure the mechanism.
 */
function harness(options: { recordClaims: boolean }) {
  const state = { crash: false };
  const wrap = ({ claimsStatement, ...store }: IdempotencyStore): IdempotencyStore => ({
    ...store,
    // The control writes no claim at all: neither on its own nor inside a spot batch's statement.
    ...(options.recordClaims && claimsStatement ? { claimsStatement } : {}),
    commit: options.recordClaims ? store.commit : async () => true,
    commitMany: options.recordClaims
      ? store.commitMany
      : async (_tx, claims) => new Set(claims.map((c) => c.key.hash)),
    async finish(key, claimId, answer, now) {
      if (!state.crash) return store.finish(key, claimId, answer, now);
      state.crash = false;
      return store.release(key);
    },
  });
  return { state, wrap };
}

async function usdtUnits(t: TestApp, customerId: string, accountType: 'spot' | 'contract'): Promise<bigint> {
  const balance = await ledgerOf(t).balance(t.db, {
    book: 'real',
    customerId,
    accountType,
    currency: 'USDT',
  });
  return balance.availableUnits + balance.frozenUnits;
}

for (const recordClaims of [true, false]) {
  describe(`a lost answer and a retry (${recordClaims ? 'claims recorded with the effect' : 'control: claims not recorded'})`, () => {
    let t: TestApp;
    let h: ReturnType<typeof harness>;
    let staff: { finance: StaffLogin; finance2: StaffLogin };
    beforeAll(async () => {
      h = harness({ recordClaims });
      t = await startTestApp(
        { feedTickMs: 0, adjustmentApprovalThresholdUsdt: '1000' },
        { idempotency: h.wrap },
      );
      await t.app.market.step();
      staff = { finance: await staffSession(t, ['finance']), finance2: await staffSession(t, ['finance']) };
    });
    afterAll(async () => t?.close());

    const effects = recordClaims ? 1 : 2;

    it(`a transfer: ${effects} effect(s)`, async () => {
      const c = await customer(t);
      await fund(t, c.id, 'USDT', USDT(100));
      const fields = {
        token: c.token,
        currency: 'USDT',
        amount: '10',
        from: 'spot',
        to: 'contract',
        rtoken: 'xfer-lost-1',
      };
      h.state.crash = true;
      expect((await call(t.app, { call: 'transferAsset', fields })).code).toBe(1);
      const retry = await call(t.app, { call: 'transferAsset', fields });
      if (recordClaims) expect(retry).toMatchObject({ status: 409, reason: 'REQUEST_ALREADY_APPLIED' });
      expect(await usdtUnits(t, c.id, 'contract')).toBe(USDT(10) * BigInt(effects));
    });

    it(`a spot order: ${effects} order(s)`, async () => {
      const c = await customer(t);
      await fund(t, c.id, 'USDT', USDT(1000));
      const fields = {
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        price: '100',
        quantity: '0.1',
        rtoken: 'spot-lost-1',
      };
      h.state.crash = true;
      const placed = await call(t.app, { call: 'createOrder', fields, headers: { token: c.token } });
      expect(placed, JSON.stringify(placed)).toMatchObject({ code: 1 });
      await call(t.app, { call: 'createOrder', fields, headers: { token: c.token } });
      const orders = await t.db
        .selectFrom('spot_order')
        .select('id')
        .where('customer_id', '=', c.id)
        .execute();
      expect(orders).toHaveLength(effects);
    });

    it(`a staff balance adjustment: ${effects} credit(s)`, async () => {
      const c = await customer(t);
      const fields = {
        customer_id: c.id,
        account_type: 'spot',
        currency: 'USDT',
        direction: 'credit',
        amount: '5',
        reason: 'goodwill credit',
        rtoken: 'adjust-lost-1',
      };
      h.state.crash = true;
      expect(
        (await adminCall(t.app, { call: 'createAdjustment', token: staff.finance.token, fields })).code,
      ).toBe(1);
      await adminCall(t.app, { call: 'createAdjustment', token: staff.finance.token, fields });
      expect(await usdtUnits(t, c.id, 'spot')).toBe(USDT(5) * BigInt(effects));
    });
  });
}

describe('rtoken belongs to the principal', () => {
  let t: TestApp;
  let finance: StaffLogin;
  let finance2: StaffLogin;
  beforeAll(async () => {
    t = await startTestApp({ feedTickMs: 0, adjustmentApprovalThresholdUsdt: '1000' });
    finance = await staffSession(t, ['finance']);
    finance2 = await staffSession(t, ['finance']);
  });
  afterAll(async () => t?.close());

  it('the same staff adjustment sent three times with one rtoken credits once and answers the same', async () => {
    const c = await customer(t);
    const fields = {
      customer_id: c.id,
      account_type: 'spot',
      currency: 'USDT',
      direction: 'credit',
      amount: '7',
      reason: 'goodwill credit',
      rtoken: 'adjust-three',
    };
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await adminCall(t.app, { call: 'createAdjustment', token: finance.token, fields }));
    expect(answers[0], JSON.stringify(answers[0])).toMatchObject({ code: 1 });
    expect(answers.map((a) => a.data?.adjustment_id)).toEqual(Array(3).fill(answers[0]?.data.adjustment_id));
    expect(await usdtUnits(t, c.id, 'spot')).toBe(USDT(7));
  });

  it('a staff call without rtoken is refused and changes nothing', async () => {
    const c = await customer(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/admin/createAdjustment',
      headers: { authorization: `Bearer ${finance.token}` },
      payload: {
        customer_id: c.id,
        account_type: 'spot',
        currency: 'USDT',
        direction: 'credit',
        amount: '1',
        reason: 'no rtoken here',
      },
    });
    expect(response.json()).toMatchObject({ reason: 'FIELD_REQUIRED', params: { field: 'rtoken' } });
    expect(await usdtUnits(t, c.id, 'spot')).toBe(0n);
  });

  it('a four-eyes approval applies once: repeated with its rtoken it replays, with another it is refused', async () => {
    const c = await customer(t);
    const created = await adminCall(t.app, {
      call: 'createAdjustment',
      token: finance.token,
      fields: {
        customer_id: c.id,
        account_type: 'spot',
        currency: 'USDT',
        direction: 'credit',
        amount: '2000',
        reason: 'large goodwill',
      },
    });
    expect(created.data.status).toBe('pending');
    const approve = (rtoken: string) =>
      adminCall(t.app, {
        call: 'approveAdjustment',
        token: finance2.token,
        fields: { adjustment_id: created.data.adjustment_id, rtoken, reason: 'checked against the ticket' },
      });
    const [a, b] = await Promise.all([approve('approve-once-1'), approve('approve-once-1')]);
    expect([a.code, b.code]).toEqual([1, 1]);
    const other = await approve('approve-once-2');
    expect(other.code).not.toBe(1);
    expect(await usdtUnits(t, c.id, 'spot')).toBe(USDT(2000));
  });

  it('a retry from another session of the same customer gets the first answer; another customer’s same rtoken is theirs', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    const email = (
      await t.db
        .selectFrom('accounts_customer')
        .select('email')
        .where('id', '=', c.id)
        .executeTakeFirstOrThrow()
    ).email;
    const second = await call(t.app, {
      call: 'userLogin',
      fields: { account: email ?? '', password: 'secret123' },
    });
    expect(second, JSON.stringify(second)).toMatchObject({ code: 1 });
    const fields = { currency: 'USDT', amount: '3', from: 'spot', to: 'contract', rtoken: 'shared-rtoken-1' };
    const first = await call(t.app, { call: 'transferAsset', fields: { ...fields, token: c.token } });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/web/transferAsset',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ...fields, token: second.data.token }).toString(),
    });
    expect(first, JSON.stringify(first)).toMatchObject({ code: 1 });
    expect(again.headers['x-idempotent-replay'], again.body).toBe('1');
    expect(again.json()).toEqual({ code: first.code, msg: first.msg, data: first.data });
    expect(await usdtUnits(t, c.id, 'contract')).toBe(USDT(3));
    const d = await customer(t);
    await fund(t, d.id, 'USDT', USDT(100));
    expect((await call(t.app, { call: 'transferAsset', fields: { ...fields, token: d.token } })).code).toBe(
      1,
    );
    expect(await usdtUnits(t, d.id, 'contract')).toBe(USDT(3));
  });

  it('the same rtoken with other content is refused (RTOKEN_REUSED) and changes nothing', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    const base = {
      token: c.token,
      currency: 'USDT',
      from: 'spot',
      to: 'contract',
      rtoken: 'reused-rtoken-1',
    };
    expect((await call(t.app, { call: 'transferAsset', fields: { ...base, amount: '4' } })).code).toBe(1);
    const reused = await call(t.app, { call: 'transferAsset', fields: { ...base, amount: '40' } });
    expect(reused).toMatchObject({ status: 400, reason: 'RTOKEN_REUSED', params: { field: 'rtoken' } });
    expect(await usdtUnits(t, c.id, 'contract')).toBe(USDT(4));
  });

  it('ten simultaneous twins of one transfer move the money once and all answer alike', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(100));
    const fields = {
      token: c.token,
      currency: 'USDT',
      amount: '6',
      from: 'spot',
      to: 'contract',
      rtoken: 'twins-rtoken-1',
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(t.app, { call: 'transferAsset', fields })),
    );
    expect(answers.every((a) => a.code === 1)).toBe(true);
    expect(await usdtUnits(t, c.id, 'contract')).toBe(USDT(6));
  });
});
