import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import {
  invitationCodeOf,
  inviteeCounts,
  inviteesPage,
  inviterChain,
  sharedDevice,
} from '../accounts/index.ts';
import { fund, ledgerOf, USDT } from '../assets/testing.ts';
import type { PlatformCode } from '../ledger/index.ts';
import { feeMarkets, feesPaidAfter } from '../spot/index.ts';
import { type StaffLogin, staffSession } from '../staff/testing.ts';
import { addAddress } from '../withdrawals/testing.ts';
import { createReferral } from './index.ts';
import { counterparty, type Invited, register, staffGet, staffPost, tradeAsTaker, web } from './testing.ts';

/**
 * Referral income over HTTP on a real PostgreSQL: a friend registers with the code and trades, the
 * job pays the inviter exactly the share of the fee, linked to the trade and the fee's ledger entry;
 * depth 2 down a chain of three; depth held to the jurisdiction profile; a crash inside the job's
 * transaction and a second run give one effect; shared devices and payout addresses are flagged and
 * excluded until staff clear them (audited); the ledger verifies clean.
 */

let t: TestApp;
let admin: StaffLogin;
let cp: Awaited<ReturnType<typeof counterparty>>;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, sessionTtlDays: 365 });
  await t.app.market.step();
  admin = await staffSession(t, ['administrator']);
  cp = await counterparty(t);
});
afterAll(async () => t?.close());

const USDT_UNITS = (text: string) => {
  const [w = '0', f = ''] = text.split('.');
  return BigInt(w) * 10n ** 8n + BigInt(f.padEnd(8, '0'));
};

async function spotUsdt(customerId: string): Promise<bigint> {
  const row = await t.db
    .selectFrom('ledger_account')
    .select('available')
    .where('customer_id', '=', customerId)
    .where('account_type', '=', 'spot')
    .where('currency', '=', 'USDT')
    .where('book', '=', 'real')
    .executeTakeFirst();
  return row ? BigInt(row.available) : 0n;
}

/** An entry's postings on platform accounts: which account and how much. */
async function platformLegs(entryId: string) {
  return t.db
    .selectFrom('ledger_posting as p')
    .innerJoin('ledger_account as a', 'a.id', 'p.account_id')
    .select(['a.platform_code', sql<string>`p.amount::text`.as('amount')])
    .where('p.entry_id', '=', entryId)
    .where('a.platform_code', 'is not', null)
    .execute();
}

async function platformUsdt(code: PlatformCode): Promise<bigint> {
  const rows = await ledgerOf(t).platformBalances(t.db, { book: 'real', platform: code });
  return rows.find((r: { currency: string }) => r.currency === 'USDT')?.availableUnits ?? 0n;
}

async function incomeRows(inviterId: string) {
  return t.db.selectFrom('referral_income').selectAll().where('inviter_id', '=', inviterId).execute();
}

async function setSettings(fields: Record<string, string>) {
  return staffPost(t, admin, 'settings', { enabled: '1', reason: 'test programme', ...fields });
}

async function selectProfile(profile: string) {
  const { adminCall } = await import('../staff/testing.ts');
  const a = await adminCall(t.app, {
    call: 'jurisdiction',
    token: admin.token,
    fields: { profile, reason: 'test profile' },
  });
  expect(a.code, a.msg).toBe(1);
}

describe('referral income', () => {
  it('a friend registers with the code and trades: the inviter gets 20 % of the fee, linked to it', async () => {
    const inviter = await register(t);
    const friend = await register(t, { code: inviter.code });
    await tradeAsTaker(t, cp, friend);
    const before = await spotUsdt(inviter.id);
    const run = await t.app.referral.service.runJob();
    expect(run.paid).toBe(1);
    // Taker fee 0.2 % of 2000 USDT = 4 USDT; 20 % of it = 0.8 USDT.
    expect((await spotUsdt(inviter.id)) - before).toBe(USDT_UNITS('0.8'));

    const [line] = await incomeRows(inviter.id);
    const trade = await t.db
      .selectFrom('spot_trade')
      .selectAll()
      .where('taker_customer_id', '=', friend.id)
      .executeTakeFirstOrThrow();
    expect(line).toMatchObject({
      invitee_id: friend.id,
      level: 1,
      status: 'paid',
      source: 'spot_trade',
      source_id: trade.id,
      fee_entry_id: trade.entry_id,
      fee_currency: 'USDT',
      fee_units: trade.taker_fee_units,
      share_bps: 2000,
      amount_units: USDT_UNITS('0.8').toString(),
    });
    const entry = await t.db
      .selectFrom('ledger_entry')
      .selectAll()
      .where('id', '=', line?.income_entry_id as string)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ reason: 'reward.referral', reference_type: 'referral_income' });
    expect(entry.idempotency_key).toBe(`referral:${trade.id}:${friend.id}:1`);
    // Paid from the account the fee went into: BTC/USDT's own fee account.
    expect(await platformLegs(entry.id)).toEqual([
      { platform_code: 'spot_fees_btc_usdt', amount: (-USDT_UNITS('0.8')).toString() },
    ]);

    const mine = await web(t, inviter, 'getMyPromotion');
    expect(mine.data).toMatchObject({
      offered: true,
      depth: 1,
      invitation_code: inviter.code,
      levels: [{ level: 1, share_bps: 2000, headcount: 1, income: [{ currency: 'USDT', amount: '0.8' }] }],
      total: [{ currency: 'USDT', amount: '0.8' }],
      exclusions: ['self', 'same_device', 'same_payout'],
    });
    expect(mine.data.invite_link).toContain(`invite=${inviter.code}`);
    const invitees = await web(t, inviter, 'getPromotionInvitees');
    expect(invitees.data.items).toEqual([
      expect.objectContaining({
        uid: friend.uid,
        level: 1,
        contact: expect.stringMatching(/^\w{1,2}\*\*\*@example\.com$/),
      }),
    ]);
    const income = await web(t, inviter, 'getPromotionIncome', { lang: 'en' });
    expect(income.data.items[0]).toMatchObject({
      amount: '0.8',
      currency: 'USDT',
      fee: '4',
      trade_id: trade.id,
    });
    expect(income.data.items[0].remark).toBe(`Level 1: 20 % of the 4 USDT fee on trade ${trade.id}`);
    const zh = await web(t, inviter, 'getPromotionIncome', { lang: 'zh' });
    expect(zh.data.items[0].remark).toContain('手续费 4 USDT 的 20%');

    // Run again: nothing more.
    expect(await t.app.referral.service.runJob()).toEqual({ paid: 0, excluded: 0, read: 0 });
    expect((await spotUsdt(inviter.id)) - before).toBe(USDT_UNITS('0.8'));
  });

  it('depth 2 down a chain of three: 20 % to the nearest inviter, 10 % to the one above', async () => {
    expect((await setSettings({ depth: '2', shares_bps: '2000,1000' })).code).toBe(1);
    const top = await register(t);
    const middle = await register(t, { code: top.code });
    const bottom = await register(t, { code: middle.code });
    const [topBefore, middleBefore] = [await spotUsdt(top.id), await spotUsdt(middle.id)];
    await tradeAsTaker(t, cp, bottom);
    expect((await t.app.referral.service.runJob()).paid).toBe(2);
    expect((await spotUsdt(middle.id)) - middleBefore).toBe(USDT_UNITS('0.8'));
    expect((await spotUsdt(top.id)) - topBefore).toBe(USDT_UNITS('0.4'));
    const [line] = await incomeRows(top.id);
    expect(line).toMatchObject({ invitee_id: bottom.id, level: 2, share_bps: 1000 });
    const mine = await web(t, top, 'getMyPromotion');
    expect(mine.data.levels).toMatchObject([
      { level: 1, headcount: 1, income: [] },
      { level: 2, headcount: 1, income: [{ currency: 'USDT', amount: '0.4' }] },
    ]);
    expect((await web(t, top, 'getPromotionInvitees', { level: '2' })).data.items[0].uid).toBe(bottom.uid);
  });

  it('depth is held to the jurisdiction profile: refused beyond it, and paid no deeper', async () => {
    await selectProfile('eu_retail');
    try {
      const refused = await setSettings({ depth: '2', shares_bps: '2000,1000' });
      expect(refused).toMatchObject({ code: 0, reason: 'REFERRAL_DEPTH_PROFILE', params: { max: 1 } });
      const settings = await staffGet(t, admin, 'settings');
      // The depth-2 programme saved under the permissive profile pays one level under eu_retail.
      expect(settings.data).toMatchObject({ depth: 2, profile_max_depth: 1, effective_depth: 1 });
      expect(settings.data.preview).toEqual([{ level: 1, amount: '0.2' }]);
      const top = await register(t);
      const middle = await register(t, { code: top.code });
      const bottom = await register(t, { code: middle.code });
      await tradeAsTaker(t, cp, bottom);
      expect((await t.app.referral.service.runJob()).paid).toBe(1);
      expect(await incomeRows(top.id)).toEqual([]);
      expect(await incomeRows(middle.id)).toHaveLength(1);
      expect((await web(t, top, 'getMyPromotion')).data).toMatchObject({ depth: 1, offered: true });
    } finally {
      await selectProfile('permissive');
    }
  });

  it('refuses shares over 100 % or not one per level, and audits every change with its reason', async () => {
    expect(await setSettings({ depth: '2', shares_bps: '6000,5000' })).toMatchObject({
      reason: 'REFERRAL_SHARES_INVALID',
      params: { rule: 'shares_total' },
    });
    expect(await setSettings({ depth: '2', shares_bps: '2000' })).toMatchObject({
      reason: 'REFERRAL_SHARES_INVALID',
      params: { rule: 'shares_count' },
    });
    expect((await setSettings({ depth: '1', shares_bps: '2000', reason: 'back to one level' })).code).toBe(1);
    const audits = await t.db
      .selectFrom('staff_audit')
      .select(['action', 'reason', 'after'])
      .where('action', '=', 'referral.settings')
      .orderBy('seq')
      .execute();
    expect(audits.map((a) => a.reason)).toEqual(['test programme', 'back to one level']);
    expect(audits[1]?.after).toMatchObject({ depth: 1, shares_bps: [2000] });
  });

  it('a fee settled into fee_income, before markets had their own fee account, is shared from fee_income', async () => {
    const inviter = await register(t);
    const friend = await register(t, { code: inviter.code });
    await tradeAsTaker(t, cp, friend);
    const trade = await t.db
      .selectFrom('spot_trade')
      .selectAll()
      .where('taker_customer_id', '=', friend.id)
      .executeTakeFirstOrThrow();
    expect(trade.fee_account).toBeNull(); // settled today: the market's own account
    // What migration 20261231_0800 leaves on a trade settled before it, with the fee where it went then.
    const fee = BigInt(trade.taker_fee_units) + BigInt(trade.maker_fee_units);
    await ledgerOf(t).post(t.db, {
      reason: 'adjustment.credit',
      reference: { type: 'test', id: trade.id },
      idempotencyKey: `test:legacy-fee:${trade.id}`,
      postings: [
        { account: { book: 'real', platform: 'spot_fees_btc_usdt' }, currency: 'USDT', amountUnits: -fee },
        { account: { book: 'real', platform: 'fee_income' }, currency: 'USDT', amountUnits: fee },
      ],
    });
    await t.db
      .updateTable('spot_trade')
      .set({ fee_account: 'fee_income' })
      .where('id', '=', trade.id)
      .execute();
    const [income, market] = [await platformUsdt('fee_income'), await platformUsdt('spot_fees_btc_usdt')];
    expect((await t.app.referral.service.runJob()).paid).toBe(1);
    const [line] = await incomeRows(inviter.id);
    expect(await platformLegs(line?.income_entry_id as string)).toEqual([
      { platform_code: 'fee_income', amount: (-USDT_UNITS('0.8')).toString() },
    ]);
    expect(await platformUsdt('fee_income')).toBe(income - USDT_UNITS('0.8'));
    expect(await platformUsdt('spot_fees_btc_usdt')).toBe(market);
  });

  it('a crash inside the job transaction leaves nothing; the rerun pays exactly once', async () => {
    const inviter = await register(t);
    const friend = await register(t, { code: inviter.code });
    await tradeAsTaker(t, cp, friend);
    const ledger = ledgerOf(t);
    const ports = {
      db: t.db,
      clock: t.clock,
      log: testLogger(),
      audit: { record: async () => ({ id: 'x', hash: 'x' }) },
      referralMaxDepth: async () => 4,
      fees: { markets: feeMarkets, after: feesPaidAfter },
      invitations: {
        chain: inviterChain,
        codeOf: async (id: string) => ({ code: (await invitationCodeOf(t.db, id)) ?? '', link: '' }),
        counts: (id: string, depth: number) => inviteeCounts(t.db, id, depth),
        page: (input: Parameters<typeof inviteesPage>[1]) => inviteesPage(t.db, input),
      },
      linked: { device: sharedDevice, payout: async () => null },
      customerUids: async () => new Map<string, string>(),
      customerByUid: async () => null,
    };
    const crashing = createReferral({
      ...ports,
      ledger: {
        post: async (q, entry) => {
          await ledger.post(q, entry);
          throw new Error('crash after the entry, before the income row and the cursor');
        },
      },
    });
    const before = await spotUsdt(inviter.id);
    await expect(crashing.runJob()).rejects.toThrow('crash after the entry');
    expect(await spotUsdt(inviter.id)).toBe(before);
    expect(await incomeRows(inviter.id)).toEqual([]);
    // The module's own job and a second service over the same tables: one effect between them.
    const healthy = createReferral({ ...ports, ledger });
    const [a, b] = await Promise.all([healthy.runJob(), t.app.referral.service.runJob()]);
    expect(a.paid + b.paid).toBe(1);
    expect(await healthy.runJob()).toEqual({ paid: 0, excluded: 0, read: 0 });
    expect((await spotUsdt(inviter.id)) - before).toBe(USDT_UNITS('0.8'));
    expect(await incomeRows(inviter.id)).toHaveLength(1);
  });

  it('a second account on the same device is flagged and excluded until staff clear it (audited)', async () => {
    const device = 'SharedPhone/1.0 (same device)';
    const inviter = await register(t, { userAgent: device });
    const friend = await register(t, { code: inviter.code, userAgent: device });
    await tradeAsTaker(t, cp, friend);
    const before = await spotUsdt(inviter.id);
    expect(await t.app.referral.service.runJob()).toMatchObject({ paid: 0, excluded: 1 });
    expect(await spotUsdt(inviter.id)).toBe(before);
    const [line] = await incomeRows(inviter.id);
    expect(line).toMatchObject({ status: 'excluded', excluded_reason: 'same_device', income_entry_id: null });
    expect((await web(t, inviter, 'getPromotionIncome')).data.items).toEqual([]);

    const flags = await staffGet(t, admin, 'flags');
    const flag = flags.data.items.find((f: { inviter_uid: string }) => f.inviter_uid === inviter.uid);
    expect(flag).toMatchObject({ invitee_uid: friend.uid, reason: 'same_device', cleared_at: null });
    expect(flag.detail).toContain(device);
    const listed = await staffGet(t, admin, 'income', { inviter: inviter.uid });
    expect(listed.data.items).toMatchObject([
      { status: 'excluded', excluded_reason: 'same_device', amount: '0.8' },
    ]);

    const cleared = await staffPost(t, admin, `flags/${flag.id}/clear`, {
      reason: 'family members, checked ID',
    });
    expect(cleared.data).toMatchObject({ clear_reason: 'family members, checked ID' });
    expect(cleared.data.cleared_at).not.toBeNull();
    expect(await staffPost(t, admin, `flags/${flag.id}/clear`, { reason: 'again' })).toMatchObject({
      reason: 'REFERRAL_FLAG_CLEARED',
    });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select(['reason', 'target_id'])
      .where('action', '=', 'referral.flag.clear')
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ reason: 'family members, checked ID', target_id: flag.id });

    // From then on: paid. The excluded line stays excluded.
    await tradeAsTaker(t, cp, friend);
    expect(await t.app.referral.service.runJob()).toMatchObject({ paid: 1, excluded: 0 });
    expect((await spotUsdt(inviter.id)) - before).toBe(USDT_UNITS('0.8'));
    expect((await incomeRows(inviter.id)).map((r) => r.status).sort()).toEqual(['excluded', 'paid']);
  });

  it('shared payout details (the same withdrawal address) are flagged and excluded', async () => {
    const inviter = await register(t);
    const friend = await register(t, { code: inviter.code });
    await addAddress(t, inviter.token);
    await addAddress(t, friend.token);
    await tradeAsTaker(t, cp, friend);
    expect(await t.app.referral.service.runJob()).toMatchObject({ paid: 0, excluded: 1 });
    const [line] = await incomeRows(inviter.id);
    expect(line).toMatchObject({ status: 'excluded', excluded_reason: 'same_payout' });
    const flags = await staffGet(t, admin, 'flags', { state: 'all' });
    expect(
      flags.data.items.find((f: Invited & { inviter_uid: string }) => f.inviter_uid === inviter.uid),
    ).toMatchObject({ reason: 'same_payout', detail: expect.stringContaining('ERC20') });
  });

  it('programme off or a profile at depth 0: nothing is paid and /invite says so; fees then are never paid later', async () => {
    expect((await setSettings({ enabled: '0', depth: '1', shares_bps: '2000' })).code).toBe(1);
    const inviter = await register(t);
    const friend = await register(t, { code: inviter.code });
    await tradeAsTaker(t, cp, friend);
    expect(await t.app.referral.service.runJob()).toMatchObject({ paid: 0, excluded: 0 });
    expect((await web(t, inviter, 'getMyPromotion')).data).toMatchObject({ offered: false, depth: 0 });
    expect((await setSettings({ enabled: '1', depth: '1', shares_bps: '2000' })).code).toBe(1);
    expect(await t.app.referral.service.runJob()).toMatchObject({ paid: 0, read: 0 });
    expect(await incomeRows(inviter.id)).toEqual([]);
  });

  it('totals, permissions, bad input, and the ledger verifies clean', async () => {
    const totals = await staffGet(t, admin, 'totals');
    expect(totals.data.paid[0]).toMatchObject({ currency: 'USDT' });
    expect(totals.data.excluded[0].lines).toBeGreaterThanOrEqual(2);
    const supportOnly = await staffSession(t, ['support']);
    expect((await staffGet(t, supportOnly, 'settings')).status).toBe(403);
    const someone = await register(t);
    expect((await web(t, someone, 'getPromotionInvitees', { page_size: '1000' })).code).not.toBe(1);
    expect((await web(t, someone, 'getPromotionInvitees', { level: '9' })).status).toBe(400);
    expect((await web(t, { token: '' }, 'getMyPromotion')).code).toBe(1000);
    await fund(t, someone.id, 'USDT', USDT(1));
    const report = await ledgerOf(t).verify();
    expect(report.ok).toBe(true);
  });
});
