import { parseDecimal } from '@bourse/money';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerByEmail, startTestApp, type TestApp } from '../../../test/harness.ts';
import { adminCall, type StaffLogin, staffSession } from './testing.ts';

let t: TestApp;
let admin: StaffLogin;
let finance: StaffLogin;
let finance2: StaffLogin;
let customer: { token: string; uid: string; id: string };

async function customerId(uid: string): Promise<string> {
  const row = await t.db
    .selectFrom('accounts_customer')
    .select('id')
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  return row.id;
}

beforeAll(async () => {
  t = await startTestApp({ adjustmentApprovalThresholdUsdt: '1000', feedTickMs: 0 });
  admin = await staffSession(t, ['administrator']);
  finance = await staffSession(t, ['finance']);
  finance2 = await staffSession(t, ['finance']);
  const c = await registerByEmail(t, 'backoffice-customer@example.com');
  customer = { ...c, id: await customerId(c.uid) };
});
afterAll(async () => t?.close());

function units(text: string): bigint {
  const parsed = parseDecimal(text, { scale: 8, allowZero: true });
  if (!parsed.ok) throw new Error(`not a decimal: ${text}`);
  return parsed.units;
}

async function usdt(customerIdValue: string): Promise<bigint> {
  const detail = await adminCall(t.app, {
    method: 'GET',
    call: 'getCustomer',
    token: finance.token,
    fields: { customer_id: customerIdValue },
  });
  const row = detail.data.balances.find(
    (b: { currency: string; account_type: string }) => b.currency === 'USDT' && b.account_type === 'spot',
  );
  return units(row?.available ?? '0');
}

const adjust = (token: string, fields: Record<string, string>) =>
  adminCall(t.app, {
    call: 'createAdjustment',
    token,
    fields: {
      customer_id: customer.id,
      account_type: 'spot',
      currency: 'USDT',
      direction: 'credit',
      reason: 'goodwill credit',
      ...fields,
    },
  });

describe('permissions', () => {
  const sample: Array<[string, 'GET' | 'POST', Record<string, string>, string[]]> = [
    ['getStaffList', 'GET', {}, ['administrator']],
    ['getAuditLog', 'GET', {}, ['administrator', 'compliance']],
    ['searchCustomers', 'GET', { q: 'x' }, ['administrator', 'finance', 'compliance', 'support']],
    ['getAdjustments', 'GET', {}, ['administrator', 'finance']],
    ['getOutbox', 'GET', {}, ['administrator', 'support']],
    ['getLedgerReport', 'GET', {}, ['administrator', 'finance']],
  ];
  it('each role reaches exactly the calls its permissions allow', async () => {
    const sessions: Record<string, StaffLogin> = {};
    for (const role of ['administrator', 'finance', 'compliance', 'support', 'content'] as const) {
      sessions[role] = await staffSession(t, [role]);
    }
    for (const [path, method, fields, allowed] of sample) {
      for (const [role, s] of Object.entries(sessions)) {
        const answer = await adminCall(t.app, { method, call: path, token: s.token, fields });
        if (allowed.includes(role)) expect([path, role, answer.code]).toEqual([path, role, 1]);
        else expect([path, role, answer.status, answer.reason]).toEqual([path, role, 403, 'FORBIDDEN']);
      }
    }
  });

  it('no token: LOGIN_REQUIRED; a customer token: LOGIN_REQUIRED', async () => {
    expect((await adminCall(t.app, { method: 'GET', call: 'getAuditLog' })).reason).toBe('LOGIN_REQUIRED');
    expect(
      (await adminCall(t.app, { method: 'GET', call: 'getAuditLog', token: customer.token })).reason,
    ).toBe('LOGIN_REQUIRED');
  });
});

describe('customers', () => {
  it('search by email, uid and id; detail shows balances and journal', async () => {
    for (const q of ['backoffice-customer', customer.uid, customer.id]) {
      const found = await adminCall(t.app, {
        method: 'GET',
        call: 'searchCustomers',
        token: finance.token,
        fields: { q },
      });
      expect(found.data.list.map((c: { customer_id: string }) => c.customer_id)).toContain(customer.id);
    }
    const unknown = await adminCall(t.app, {
      method: 'GET',
      call: 'getCustomer',
      token: finance.token,
      fields: { customer_id: 'usr_nope' },
    });
    expect(unknown.reason).toBe('NOT_FOUND');
  });

  it('disabling login ends the customer sessions, is audited, and enabling lets them log in again', async () => {
    const c = await registerByEmail(t, 'to-disable@example.com', 'secret123');
    const id = await customerId(c.uid);
    const compliance = await staffSession(t, ['compliance']);
    const noReason = await adminCall(t.app, {
      call: 'disableCustomer',
      token: compliance.token,
      fields: { customer_id: id, reason: ' ' },
    });
    expect(noReason.reason).toBe('FIELD_REQUIRED');
    expect((await call(t.app, { method: 'GET', call: 'info', fields: { token: c.token } })).code).toBe(1);
    const support = await staffSession(t, ['support']);
    expect(
      (
        await adminCall(t.app, {
          call: 'disableCustomer',
          token: support.token,
          fields: { customer_id: id, reason: 'fraud report' },
        })
      ).reason,
    ).toBe('FORBIDDEN');
    const off = await adminCall(t.app, {
      call: 'disableCustomer',
      token: compliance.token,
      fields: { customer_id: id, reason: 'fraud report' },
    });
    expect(off.code).toBe(1);
    expect(off.data.ended_sessions).toBe(1);
    expect((await call(t.app, { method: 'GET', call: 'info', fields: { token: c.token } })).code).toBe(1000);
    const login = await call(t.app, {
      call: 'userLogin',
      fields: { account: 'to-disable@example.com', password: 'secret123' },
    });
    expect(login.reason).toBe('ACCOUNT_DISABLED');
    const records = await t.app.audit.list({ limit: 5, targetId: id });
    expect(records[0]).toMatchObject({
      action: 'customer.disable',
      actorId: compliance.staffId,
      reason: 'fraud report',
      before: { status: 'active' },
    });
    await adminCall(t.app, {
      call: 'enableCustomer',
      token: compliance.token,
      fields: { customer_id: id, reason: 'cleared' },
    });
    const back = await call(t.app, {
      call: 'userLogin',
      fields: { account: 'to-disable@example.com', password: 'secret123' },
    });
    expect(back.code).toBe(1);
  });
});

describe('manual adjustments', () => {
  it('at or below the threshold posts at once, as a journal entry the customer sees', async () => {
    const before = await usdt(customer.id);
    const a = await adjust(finance.token, { amount: '1000' });
    expect(a.code).toBe(1);
    expect(a.data).toMatchObject({ status: 'posted', needs_approval: false, value_usdt: '1000' });
    expect(a.data.entry_id).toMatch(/^jnl_/);
    expect((await usdt(customer.id)) - before).toBe(units('1000'));
    const detail = await adminCall(t.app, {
      method: 'GET',
      call: 'getCustomer',
      token: finance.token,
      fields: { customer_id: customer.id },
    });
    expect(detail.data.journal[0]).toMatchObject({
      entry_id: a.data.entry_id,
      reason: 'adjustment.credit',
      memo: 'goodwill credit',
      amount: '1000',
    });
    const audit = await t.app.audit.list({ limit: 1 });
    expect(audit[0]).toMatchObject({
      action: 'adjustment.post',
      targetId: customer.id,
      actorId: finance.staffId,
    });
  });

  it('above the threshold waits for a different staff member; the maker cannot decide', async () => {
    const before = await usdt(customer.id);
    const a = await adjust(finance.token, { amount: '1000.00000001' });
    expect(a.data).toMatchObject({ status: 'pending', needs_approval: true, entry_id: null });
    expect(await usdt(customer.id)).toBe(before);
    const self = await adminCall(t.app, {
      call: 'approveAdjustment',
      token: finance.token,
      fields: { adjustment_id: a.data.adjustment_id, reason: 'checked against the ticket' },
    });
    expect(self.reason).toBe('ADJUSTMENT_SELF_APPROVAL');
    const pending = await adminCall(t.app, {
      method: 'GET',
      call: 'getAdjustments',
      token: finance2.token,
      fields: { status: 'pending' },
    });
    expect(pending.data.list.map((x: { adjustment_id: string }) => x.adjustment_id)).toContain(
      a.data.adjustment_id,
    );
    // Approving posts money: without a reason it is refused and posts nothing.
    const unexplained = await adminCall(t.app, {
      call: 'approveAdjustment',
      token: finance2.token,
      fields: { adjustment_id: a.data.adjustment_id, reason: ' ' },
    });
    expect(unexplained.reason).toBe('FIELD_REQUIRED');
    expect(await usdt(customer.id)).toBe(before);
    const ok = await adminCall(t.app, {
      call: 'approveAdjustment',
      token: finance2.token,
      fields: { adjustment_id: a.data.adjustment_id, reason: 'checked against the ticket' },
    });
    expect(ok.data).toMatchObject({ status: 'posted', checker_id: finance2.staffId });
    expect((await usdt(customer.id)) - before).toBe(units('1000.00000001'));
    const again = await adminCall(t.app, {
      call: 'approveAdjustment',
      token: admin.token,
      fields: { adjustment_id: a.data.adjustment_id, reason: 'checked against the ticket' },
    });
    expect(again.reason).toBe('ADJUSTMENT_NOT_PENDING');
    expect(again.params).toEqual({ status: 'posted' });
  });

  it('rejection needs a reason and posts nothing', async () => {
    const before = await usdt(customer.id);
    const a = await adjust(finance.token, { amount: '5000', direction: 'debit' });
    const noReason = await adminCall(t.app, {
      call: 'rejectAdjustment',
      token: finance2.token,
      fields: { adjustment_id: a.data.adjustment_id },
    });
    expect(noReason.reason).toBe('FIELD_REQUIRED');
    const rejected = await adminCall(t.app, {
      call: 'rejectAdjustment',
      token: finance2.token,
      fields: { adjustment_id: a.data.adjustment_id, reason: 'not justified' },
    });
    expect(rejected.data).toMatchObject({ status: 'rejected', decision_reason: 'not justified' });
    expect(await usdt(customer.id)).toBe(before);
  });

  it('two approvals racing post once', async () => {
    for (let round = 0; round < 5; round++) {
      const before = await usdt(customer.id);
      const a = await adjust(finance.token, { amount: '2500' });
      const answers = await Promise.all([
        adminCall(t.app, {
          call: 'approveAdjustment',
          token: finance2.token,
          fields: { adjustment_id: a.data.adjustment_id, reason: 'checked against the ticket' },
        }),
        adminCall(t.app, {
          call: 'approveAdjustment',
          token: admin.token,
          fields: { adjustment_id: a.data.adjustment_id, reason: 'checked against the ticket' },
        }),
      ]);
      expect(answers.map((x) => x.code).sort()).toEqual([0, 1]);
      expect(answers.find((x) => x.code === 0)?.reason).toBe('ADJUSTMENT_NOT_PENDING');
      expect((await usdt(customer.id)) - before).toBe(units('2500'));
    }
    const entries = await t.db
      .selectFrom('ledger_entry')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('reference_type', '=', 'adjustment')
      .executeTakeFirstOrThrow();
    const posted = await t.db
      .selectFrom('staff_adjustment')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'posted')
      .executeTakeFirstOrThrow();
    expect(entries.n).toBe(posted.n);
  });

  it('a debit beyond the balance is refused and writes nothing', async () => {
    const c = await registerByEmail(t, 'poor-customer@example.com');
    const id = await customerId(c.uid);
    const before = await t.app.audit.list({ limit: 1 });
    const a = await adminCall(t.app, {
      call: 'createAdjustment',
      token: finance.token,
      fields: {
        customer_id: id,
        account_type: 'spot',
        currency: 'USDT',
        direction: 'debit',
        amount: '10',
        reason: 'fee correction',
      },
    });
    expect(a.reason).toBe('INSUFFICIENT_BALANCE');
    expect((await t.app.audit.list({ limit: 1 }))[0]?.id).toBe(before[0]?.id);
    const rows = await t.db
      .selectFrom('staff_adjustment')
      .select('id')
      .where('customer_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('bad input is refused with a reason naming the rule', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ amount: '-5' }, 'AMOUNT_NOT_POSITIVE'],
      [{ amount: '0' }, 'AMOUNT_NOT_POSITIVE'],
      [{ amount: 'NaN' }, 'AMOUNT_INVALID'],
      [{ amount: '1.000000001' }, 'AMOUNT_TOO_PRECISE'],
      [{ amount: '1'.repeat(40) }, 'AMOUNT_TOO_LARGE'],
      [{ amount: '5', currency: 'NOPE' }, 'CURRENCY_UNKNOWN'],
      [{ amount: '5', account_type: 'vault' }, 'BAD_INPUT'],
      [{ amount: '5', reason: 'x' }, 'FIELD_TOO_SHORT'],
      [{ amount: '5', customer_id: 'usr_nobody' }, 'NOT_FOUND'],
      [{ amount: '5', direction: 'steal' }, 'BAD_INPUT'],
    ];
    const count = await t.db
      .selectFrom('staff_adjustment')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    for (const [fields, reason] of cases) {
      const a = await adjust(finance.token, fields);
      expect([fields, a.reason]).toEqual([fields, reason]);
      expect(a.status).toBeLessThan(500);
    }
    const after = await t.db
      .selectFrom('staff_adjustment')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(count.n);
  });

  it('demo customers cannot be adjusted', async () => {
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    const id = await customerId(demo.data.uid);
    const a = await adjust(finance.token, { amount: '5', customer_id: id });
    expect(a.reason).toBe('ADJUSTMENT_DEMO_CUSTOMER');
  });

  it('other currencies are valued at the market price; without a price they need approval', async () => {
    // No tick yet for BTC/USDT: no price to value it by, so a second staff member must approve.
    const unpriced = await adjust(finance.token, { amount: '0.00000001', currency: 'BTC' });
    expect(unpriced.data).toMatchObject({ status: 'pending', value_usdt: null });
    t.clock.advance(1_000);
    await t.app.market.step();
    const mark = t.app.market.priceForTrading('BTC/USDT').mark;
    const tiny = await adjust(finance.token, { amount: '0.00000001', currency: 'BTC' });
    expect(tiny.data.status).toBe('posted');
    // Rounded up to the USDT minor unit: never under-valued.
    expect(units(tiny.data.value_usdt)).toBe((units(mark) + 10n ** 8n - 1n) / 10n ** 8n);
    const big = await adjust(finance.token, { amount: '1', currency: 'BTC' });
    expect(big.data.status).toBe('pending');
    expect(units(big.data.value_usdt)).toBeGreaterThanOrEqual(units(mark));
    const usd = await adjust(finance.token, { amount: '1', currency: 'USD' });
    expect(usd.data).toMatchObject({ status: 'pending', value_usdt: null });
  });
});

describe('audit log', () => {
  it('is hash-chained, readable in the viewer, and refuses edits', async () => {
    const report = await adminCall(t.app, { method: 'GET', call: 'verifyAudit', token: admin.token });
    expect(report.data).toMatchObject({ ok: true, brokenAt: null });
    expect(report.data.records).toBeGreaterThan(5);
    const page = await adminCall(t.app, {
      method: 'GET',
      call: 'getAuditLog',
      token: admin.token,
      fields: { limit: '3' },
    });
    expect(page.data.list).toHaveLength(3);
    const [a, b] = page.data.list;
    expect(a.seq).toBe(b.seq + 1);
    expect(a.prev_hash).toBe(b.hash);
    await expect(sql`update staff_audit set reason = 'edited' where seq = 1`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from staff_audit where seq = 1`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate staff_audit`.execute(t.db)).rejects.toThrow(/append-only/);
  });

  it('detects a tampered record (trigger disabled by a database superuser)', async () => {
    await t.db.connection().execute(async (conn) => {
      await sql`alter table staff_audit disable trigger staff_audit_append_only`.execute(conn);
      await sql`update staff_audit set reason = 'nothing to see' where seq = 3`.execute(conn);
      await sql`alter table staff_audit enable trigger staff_audit_append_only`.execute(conn);
    });
    const report = await t.app.audit.verifyChain();
    expect(report.ok).toBe(false);
    expect(report.brokenAt).toMatchObject({ seq: 3, problem: 'hash' });
    const viaHttp = await adminCall(t.app, { method: 'GET', call: 'verifyAudit', token: admin.token });
    expect(viaHttp.data.ok).toBe(false);
  });
});
