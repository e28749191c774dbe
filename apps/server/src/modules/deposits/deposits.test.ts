import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { SIGNATURE_HEADER, signWebhook } from '../../lib/webhook.ts';
import { customer, customerSnapshot, ledgerOf } from '../assets/testing.ts';
import { adminCall, staffSession } from '../staff/testing.ts';
import { photo, uploadDocument } from '../uploads/testing.ts';
import { DEMO_CUSTODY_XPUB, deriveDepositAddress, parseXpub } from './derive.ts';

const SECRET = 'custody-test-secret-custody-test-secret';
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0, custodyWebhookSecret: SECRET });
});
afterAll(async () => {
  await t.close();
});

type Event = {
  type: 'deposit';
  chain: string;
  txid: string;
  output_index: number;
  address: string;
  currency: string;
  amount: string;
  confirmations: number;
  status: 'success' | 'failed';
};

let txCounter = 0;
function txid(): string {
  txCounter += 1;
  return `${process.pid.toString(16)}${txCounter.toString(16).padStart(8, '0')}${Math.random().toString(16).slice(2, 10)}`;
}

async function webhook(
  event: Partial<Event> | string,
  options: { secret?: string; signature?: string } = {},
) {
  const raw = typeof event === 'string' ? event : JSON.stringify(event);
  const signature = options.signature ?? signWebhook(options.secret ?? SECRET, raw, t.clock.now().getTime());
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/custody/webhook',
    payload: raw,
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signature },
  });
  return { status: response.statusCode, ...response.json() };
}

async function addressOf(token: string, currency: string, chain: string): Promise<string> {
  const answer = await call(t.app, {
    method: 'GET',
    call: 'getRechargeAddress',
    fields: { token, currency, chain },
  });
  if (answer.code !== 1) throw new Error(`getRechargeAddress: ${answer.reason}`);
  return answer.data.address;
}

async function spot(customerId: string, currency: string): Promise<bigint> {
  const b = await ledgerOf(t).balance(t.db, { book: 'real', customerId, accountType: 'spot', currency });
  return b.availableUnits;
}

async function depositRows(): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from deposits_crypto`.execute(t.db);
  return Number(rows[0]?.n);
}

/** A remittance proof through the one upload pipeline (`web/uploadDocument`, purpose deposit_proof). */
async function upload(token: string, bytes?: Buffer, purpose = 'deposit_proof') {
  return uploadDocument(t, {
    token,
    purpose,
    file: {
      filename: 'proof.png',
      type: 'image/png',
      bytes: bytes ?? (await photo('png', { seed: ++seed })),
    },
  });
}
let seed = 0;

/** The stored upload's claim: what it is attached to and until when it is kept. */
async function claimOf(fileId: string) {
  return t.db
    .selectFrom('uploads_file')
    .select(['attached_ref', 'retain_until'])
    .where('id', '=', fileId)
    .executeTakeFirstOrThrow();
}

describe('deposit addresses', () => {
  it('derives each customer a stable address per chain family from the xpub, with the stored child index', async () => {
    const a = await customer(t);
    const b = await customer(t);
    const account = parseXpub(DEMO_CUSTODY_XPUB);
    const aEth = await addressOf(a.token, 'USDT', 'ERC20');
    expect(await addressOf(a.token, 'ETH', 'ERC20')).toBe(aEth);
    expect(await addressOf(a.token, 'USDT', 'ERC20')).toBe(aEth);
    const aBtc = await addressOf(a.token, 'BTC', 'BTC');
    const aTrx = await addressOf(a.token, 'TRX', 'TRC20');
    const bEth = await addressOf(b.token, 'USDT', 'ERC20');
    const keys = await t.db
      .selectFrom('deposits_key')
      .selectAll()
      .where('customer_id', 'in', [a.id, b.id])
      .execute();
    const index = (id: string) => keys.find((k) => k.customer_id === id)?.child_index as number;
    expect(index(a.id)).not.toBe(index(b.id));
    expect(aEth).toBe(deriveDepositAddress(account, 'evm', index(a.id)));
    expect(aBtc).toBe(deriveDepositAddress(account, 'btc', index(a.id)));
    expect(aTrx).toBe(deriveDepositAddress(account, 'tron', index(a.id)));
    expect(bEth).toBe(deriveDepositAddress(account, 'evm', index(b.id)));
    expect(aBtc).toMatch(/^bc1q/);
    expect(aTrx).toMatch(/^T/);
  });

  it('a closed channel refuses with the spec text; unknown chains and demo customers are refused', async () => {
    const c = await customer(t);
    const closed = await call(t.app, {
      method: 'GET',
      call: 'getRechargeAddress',
      fields: { token: c.token, currency: 'USDT', chain: 'TRC20' },
    });
    expect(closed.reason).toBe('RECHARGE_CHANNEL_CLOSED');
    expect(closed.msg).toMatch(/this recharge channel is not yet open/i);
    const bad = await call(t.app, {
      method: 'GET',
      call: 'getRechargeAddress',
      fields: { token: c.token, currency: 'BTC', chain: 'ERC20' },
    });
    expect(bad.reason).toBe('BAD_INPUT');
    const unknown = await call(t.app, {
      method: 'GET',
      call: 'getRechargeAddress',
      fields: { token: c.token, currency: 'XYZ', chain: 'ERC20' },
    });
    expect(unknown.reason).toBe('CURRENCY_UNKNOWN');
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin' });
    const refused = await call(t.app, {
      method: 'GET',
      call: 'getRechargeAddress',
      fields: { token: demo.data.token, currency: 'USDT', chain: 'ERC20' },
    });
    expect(refused.reason).toBe('REAL_ACCOUNT_REQUIRED');
  });
});

describe('custody webhook', () => {
  it('a bad, missing or expired signature is refused and nothing is written', async () => {
    const c = await customer(t);
    const address = await addressOf(c.token, 'USDT', 'ERC20');
    const event: Event = {
      type: 'deposit',
      chain: 'ERC20',
      txid: txid(),
      output_index: 0,
      address,
      currency: 'USDT',
      amount: '50',
      confirmations: 20,
      status: 'success',
    };
    const before = [await customerSnapshot(t, c.id), await depositRows()];
    const wrong = await webhook(event, { secret: 'another-secret-another-secret-another' });
    expect(wrong).toMatchObject({ status: 403, reason: 'WEBHOOK_SIGNATURE_INVALID' });
    const missing = await webhook(event, { signature: '' });
    expect(missing.reason).toBe('WEBHOOK_SIGNATURE_INVALID');
    const old = signWebhook(SECRET, JSON.stringify(event), t.clock.now().getTime() - 3_600_000);
    expect((await webhook(event, { signature: old })).reason).toBe('WEBHOOK_SIGNATURE_INVALID');
    // A valid signature over other bytes does not cover this body.
    const other = signWebhook(SECRET, JSON.stringify({ ...event, amount: '1' }), t.clock.now().getTime());
    expect((await webhook(event, { signature: other })).reason).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect([await customerSnapshot(t, c.id), await depositRows()]).toEqual(before);
  });

  it('replayed 20 times at once, a deposit credits exactly once', async () => {
    const c = await customer(t);
    const address = await addressOf(c.token, 'USDT', 'ERC20');
    const event: Event = {
      type: 'deposit',
      chain: 'ERC20',
      txid: txid(),
      output_index: 3,
      address: address.toLowerCase(),
      currency: 'USDT',
      amount: '250.5',
      confirmations: 12,
      status: 'success',
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => webhook(event)));
    expect(answers.every((a) => a.code === 1)).toBe(true);
    expect(answers.filter((a) => a.data.credited)).toHaveLength(1);
    expect(await spot(c.id, 'USDT')).toBe(25_050_000_000n);
    const again = await webhook({ ...event, confirmations: 40 });
    expect(again.data).toMatchObject({ status: 2, credited: false });
    expect(await spot(c.id, 'USDT')).toBe(25_050_000_000n);
    const entries = await t.db
      .selectFrom('ledger_entry')
      .select('id')
      .where('idempotency_key', '=', `deposit:ERC20:${event.txid}:3`)
      .execute();
    expect(entries).toHaveLength(1);
    expect((await ledgerOf(t).verify()).ok).toBe(true);
  });

  it('below the confirmations threshold nothing is credited until it is reached', async () => {
    const c = await customer(t);
    const address = await addressOf(c.token, 'BTC', 'BTC');
    const event: Event = {
      type: 'deposit',
      chain: 'BTC',
      txid: txid(),
      output_index: 0,
      address,
      currency: 'BTC',
      amount: '0.5',
      confirmations: 0,
      status: 'success',
    };
    expect((await webhook(event)).data).toMatchObject({ status: 1, state: 'pending', credited: false });
    expect((await webhook({ ...event, confirmations: 1 })).data.credited).toBe(false);
    expect(await spot(c.id, 'BTC')).toBe(0n);
    const records = await call(t.app, {
      method: 'GET',
      call: 'getRecords',
      fields: { token: c.token, kind: 'recharge' },
    });
    expect(records.data.items[0]).toMatchObject({ type: 'crypto', status: 1, amount: '0.5', held: false });
    // A late event with fewer confirmations never lowers the count.
    expect((await webhook({ ...event, confirmations: 0 })).data.confirmations).toBe(1);
    expect((await webhook({ ...event, confirmations: 2 })).data).toMatchObject({ status: 2, credited: true });
    expect(await spot(c.id, 'BTC')).toBe(50_000_000n);
  });

  it('a failed transaction credits nothing, even when it later reports confirmations', async () => {
    const c = await customer(t);
    const address = await addressOf(c.token, 'ETH', 'ERC20');
    const event: Event = {
      type: 'deposit',
      chain: 'ERC20',
      txid: txid(),
      output_index: 0,
      address,
      currency: 'ETH',
      amount: '1',
      confirmations: 3,
      status: 'failed',
    };
    expect((await webhook(event)).data).toMatchObject({ status: 0, state: 'failed' });
    expect((await webhook({ ...event, status: 'success', confirmations: 100 })).data).toMatchObject({
      status: 0,
    });
    expect(await spot(c.id, 'ETH')).toBe(0n);
  });

  it('below-minimum deposits are held and shown, then credited together once they reach the minimum', async () => {
    const c = await customer(t);
    const address = await addressOf(c.token, 'TRX', 'TRC20');
    const base = {
      type: 'deposit' as const,
      chain: 'TRC20',
      address,
      currency: 'TRX',
      confirmations: 25,
      status: 'success' as const,
    };
    const first = await webhook({ ...base, txid: txid(), output_index: 0, amount: '4' });
    expect(first.data).toMatchObject({ status: 1, state: 'held', credited: false });
    const second = await webhook({ ...base, txid: txid(), output_index: 0, amount: '5.5' });
    expect(second.data.state).toBe('held');
    expect(await spot(c.id, 'TRX')).toBe(0n);
    const held = await call(t.app, {
      method: 'GET',
      call: 'getRecords',
      fields: { token: c.token, kind: 'recharge', status: '1' },
    });
    expect(held.data.items.map((i: { held: boolean }) => i.held)).toEqual([true, true]);
    const third = await webhook({ ...base, txid: txid(), output_index: 1, amount: '0.5' });
    expect(third.data).toMatchObject({ status: 2, credited: true });
    expect(await spot(c.id, 'TRX')).toBe(10_000_000n);
    const rows = await t.db
      .selectFrom('deposits_crypto')
      .selectAll()
      .where('customer_id', '=', c.id)
      .execute();
    expect(rows.every((r) => r.status === 'credited' && r.released_by === 'cumulative')).toBe(true);
  });

  it('refuses events it cannot place, writing nothing', async () => {
    const c = await customer(t);
    const address = await addressOf(c.token, 'USDT', 'ERC20');
    const good: Event = {
      type: 'deposit',
      chain: 'ERC20',
      txid: txid(),
      output_index: 0,
      address,
      currency: 'USDT',
      amount: '5',
      confirmations: 0,
      status: 'success',
    };
    const before = [await customerSnapshot(t, c.id), await depositRows()];
    const cases: Array<[Partial<Event> | string, string]> = [
      [{ ...good, address: '0x0000000000000000000000000000000000000001' }, 'NOT_FOUND'],
      [{ ...good, chain: 'DOGE' }, 'BAD_INPUT'],
      [{ ...good, currency: 'BTC' }, 'BAD_INPUT'],
      [{ ...good, amount: '-5' }, 'BAD_INPUT'],
      [{ ...good, amount: '0' }, 'BAD_INPUT'],
      [{ ...good, amount: 'NaN' }, 'BAD_INPUT'],
      [{ ...good, amount: '1.123456789' }, 'BAD_INPUT'],
      [{ ...good, status: 'maybe' as 'failed' }, 'BAD_INPUT'],
      ['{not json', 'MALFORMED_BODY'],
    ];
    for (const [event, reason] of cases) {
      const answer = await webhook(event);
      expect(answer.reason, JSON.stringify(event)).toBe(reason);
      expect(answer.status).toBeLessThan(500);
    }
    expect([await customerSnapshot(t, c.id), await depositRows()]).toEqual(before);
    // The same output cannot change its amount later.
    await webhook(good);
    expect((await webhook({ ...good, amount: '6' })).reason).toBe('BAD_INPUT');
  });
});

describe('bank deposits', () => {
  it('customer submits amount, reference and proof; finance confirms (credit, audited) or rejects with a reason', async () => {
    const c = await customer(t);
    const up = await upload(c.token);
    expect(up.code).toBe(1);
    expect(up.data).toMatchObject({ purpose: 'deposit_proof', mime: 'image/png' });
    const submit = await call(t.app, {
      call: 'bankRecharge',
      fields: {
        token: c.token,
        currency: 'USDT',
        amount: '300',
        reference: 'HSBC-123',
        proof_id: up.data.file_id,
      },
    });
    expect(submit.data).toMatchObject({ status: 1 });
    // Claimed by this deposit, kept as long as the active jurisdiction profile keeps documents
    // (1825 days in the built-in profiles), from the time it was claimed.
    const claim = await claimOf(up.data.file_id);
    expect(claim.attached_ref).toBe(`deposit:${submit.data.id}`);
    expect(claim.retain_until?.getTime()).toBe(t.clock.now().getTime() + 1825 * 86_400_000);
    // The proof cannot be used twice.
    const twice = await call(t.app, {
      call: 'bankRecharge',
      fields: {
        token: c.token,
        currency: 'USDT',
        amount: '300',
        reference: 'again',
        proof_id: up.data.file_id,
      },
    });
    expect(twice.reason).toBe('NOT_FOUND');

    const support = await staffSession(t, ['support']);
    const forbidden = await adminCall(t.app, {
      call: 'deposits/bank/confirm',
      token: support.token,
      fields: { id: submit.data.id, reason: 'remittance matches the statement' },
    });
    expect(forbidden.reason).toBe('FORBIDDEN');
    const finance = await staffSession(t, ['finance']);
    const queue = await adminCall(t.app, { method: 'GET', call: 'deposits/queue', token: finance.token });
    expect(queue.data.bank.map((b: { id: string }) => b.id)).toContain(submit.data.id);
    // The proof is shown through a 5-minute link made for this staff member, audited as a view.
    const noProofView = await adminCall(t.app, {
      method: 'GET',
      call: 'deposits/proofLink',
      token: support.token,
      fields: { id: submit.data.id },
    });
    expect(noProofView.reason).toBe('FORBIDDEN');
    const proofLink = await adminCall(t.app, {
      method: 'GET',
      call: 'deposits/proofLink',
      token: finance.token,
      fields: { id: submit.data.id },
    });
    expect(proofLink.data).toMatchObject({ file_id: up.data.file_id, mime: 'image/png' });
    expect(proofLink.data.url).toContain(`by=s%3A${finance.staffId}`);
    const served = await t.app.inject({ method: 'GET', url: proofLink.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(createHash('sha256').update(served.rawPayload).digest('hex')).toBe(up.data.sha256);
    const views = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('target_id', '=', up.data.file_id)
      .execute();
    expect(views).toHaveLength(1);
    expect(views[0]).toMatchObject({ action: 'document.view', actor_id: finance.staffId });
    expect(views[0]?.after).toMatchObject({
      customer_id: c.id,
      purpose: 'deposit_proof',
      attached_ref: `deposit:${submit.data.id}`,
    });
    const unknown = await adminCall(t.app, {
      method: 'GET',
      call: 'deposits/proofLink',
      token: finance.token,
      fields: { id: 'bdp_doesnotexist' },
    });
    expect(unknown.reason).toBe('NOT_FOUND');

    const queued = queue.data.bank.find((b: { id: string }) => b.id === submit.data.id);
    expect(queued.customer).toMatchObject({
      customer_id: c.id,
      verification: { level: 0, status: 'unverified' },
    });
    // Crediting a customer is a money action: without a reason it is refused, in the staff
    // member's language, and nothing is credited.
    const unexplained = await adminCall(t.app, {
      call: 'deposits/bank/confirm',
      token: finance.token,
      fields: { id: submit.data.id, lang: 'zh', reason: '  ' },
    });
    expect(unexplained.reason).toBe('FIELD_REQUIRED');
    expect(unexplained.msg).toBe('原因不能为空');
    expect(await spot(c.id, 'USDT')).toBe(0n);
    const confirmed = await adminCall(t.app, {
      call: 'deposits/bank/confirm',
      token: finance.token,
      fields: { id: submit.data.id, reason: 'remittance matches the statement' },
    });
    expect(confirmed.data).toMatchObject({ status: 2 });
    expect(await spot(c.id, 'USDT')).toBe(30_000_000_000n);
    const again = await adminCall(t.app, {
      call: 'deposits/bank/confirm',
      token: finance.token,
      fields: { id: submit.data.id, reason: 'remittance matches the statement' },
    });
    expect(again.reason).toBe('DEPOSIT_NOT_PENDING');
    expect(await spot(c.id, 'USDT')).toBe(30_000_000_000n);
    const audit = await t.db
      .selectFrom('staff_audit')
      .selectAll()
      .where('target_id', '=', submit.data.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['deposit.confirm']);

    t.clock.advance(1_000);
    const up2 = await upload(c.token);
    const second = await call(t.app, {
      call: 'bankRecharge',
      fields: {
        token: c.token,
        currency: 'USDT',
        amount: '20',
        reference: 'R2',
        proof_id: up2.data.file_id,
      },
    });
    const noReason = await adminCall(t.app, {
      call: 'deposits/bank/reject',
      token: finance.token,
      fields: { id: second.data.id, reason: ' ' },
    });
    expect(noReason.reason).toBe('FIELD_REQUIRED');
    const rejected = await adminCall(t.app, {
      call: 'deposits/bank/reject',
      token: finance.token,
      fields: { id: second.data.id, reason: 'No matching remittance' },
    });
    expect(rejected.data.status).toBe(0);
    expect(await spot(c.id, 'USDT')).toBe(30_000_000_000n);
    const records = await call(t.app, {
      method: 'GET',
      call: 'getRecords',
      fields: { token: c.token, kind: 'recharge', type: 'bank' },
    });
    expect(records.data.items.map((i: { status: number }) => i.status)).toEqual([0, 2]);
    expect(records.data.items[0].failure).toBe('No matching remittance');
    expect(records.data.items[0].ref).toEqual({ kind: 'deposit', id: second.data.id });
  });

  it("refuses bad uploads and bad submissions; another customer's proof is NOT_FOUND", async () => {
    const c = await customer(t);
    const other = await customer(t);
    // The pipeline's own checks: the type by content (whatever the name and declared type say), the size.
    expect((await upload(c.token, Buffer.from('GIF89a not allowed'))).reason).toBe('UPLOAD_TYPE_INVALID');
    const max = 8 * 1024 * 1024;
    const img = await photo('png');
    const big = await upload(c.token, Buffer.concat([img, Buffer.alloc(max + 1 - img.length)]));
    expect(big.status).toBe(413);
    expect(big.reason).toBe('UPLOAD_TOO_LARGE');
    expect(big.params).toEqual({ maxBytes: max });
    // Nothing else stores proofs any more: the old table is left with what it had, never written.
    const { rows: old } = await sql<{ n: string }>`select count(*)::text as n from deposits_proof`.execute(
      t.db,
    );
    expect(old[0]?.n).toBe('0');
    const theirs = await upload(other.token);
    // A file uploaded for identity verification is not a remittance proof.
    const kyc = await upload(c.token, undefined, 'verification');
    const before = await t.db.selectFrom('deposits_bank').select('id').execute();
    const base = {
      token: c.token,
      currency: 'USDT',
      amount: '50',
      reference: 'R',
      proof_id: theirs.data.file_id,
    };
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'NOT_FOUND'],
      [{ proof_id: 'upl_doesnotexist' }, 'NOT_FOUND'],
      [{ proof_id: kyc.data.file_id }, 'NOT_FOUND'],
      [{ amount: '0.5' }, 'RECHARGE_BELOW_MINIMUM'],
      [{ amount: '-50' }, 'AMOUNT_NOT_POSITIVE'],
      [{ amount: 'NaN' }, 'AMOUNT_INVALID'],
      [{ amount: '1.000000001' }, 'AMOUNT_TOO_PRECISE'],
      [{ amount: '99999999999999999999' }, 'AMOUNT_TOO_LARGE'],
      [{ currency: 'BTC' }, 'RECHARGE_CHANNEL_CLOSED'],
      [{ reference: '   ' }, 'FIELD_REQUIRED'],
    ];
    for (const [override, reason] of cases) {
      const answer = await call(t.app, { call: 'bankRecharge', fields: { ...base, ...override } });
      expect(answer.reason, JSON.stringify(override)).toBe(reason);
    }
    expect(await t.db.selectFrom('deposits_bank').select('id').execute()).toEqual(before);
    // None of those claimed the files they named.
    expect((await claimOf(theirs.data.file_id)).attached_ref).toBeNull();
    expect((await claimOf(kyc.data.file_id)).attached_ref).toBeNull();
  });

  it('two deposits racing for one proof: exactly one claims it', async () => {
    const c = await customer(t);
    const up = await upload(c.token);
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        call(t.app, {
          call: 'bankRecharge',
          fields: {
            token: c.token,
            currency: 'USDT',
            amount: '10',
            reference: `race${n}`,
            proof_id: up.data.file_id,
          },
        }),
      ),
    );
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.reason === 'NOT_FOUND')).toHaveLength(3);
    const rows = await t.db
      .selectFrom('deposits_bank')
      .select('id')
      .where('customer_id', '=', c.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect((await claimOf(up.data.file_id)).attached_ref).toBe(`deposit:${rows[0]?.id}`);
  });
});

describe('channel settings (operator data, audited)', () => {
  it('staff close a channel, change minimum and confirmations; the customer sees the rule', async () => {
    const admin = await staffSession(t, ['administrator']);
    const closed = await adminCall(t.app, {
      call: 'deposits/channels/update',
      token: admin.token,
      fields: { currency: 'ETH', chain: 'ERC20', open: '0', min_amount: '0.05', confirmations: '6' },
    });
    expect(closed.data).toMatchObject({ open: false, min_amount: '0.05', confirmations: 6 });
    const c = await customer(t);
    const refused = await call(t.app, {
      method: 'GET',
      call: 'getRechargeAddress',
      fields: { token: c.token, currency: 'ETH', chain: 'ERC20' },
    });
    expect(refused.reason).toBe('RECHARGE_CHANNEL_CLOSED');
    const channels = await call(t.app, { method: 'GET', call: 'getRechargeChannels' });
    expect(
      channels.data.find((ch: { currency: string; chain: string }) => ch.currency === 'ETH'),
    ).toMatchObject({
      open: false,
      min_amount: '0.05',
    });
    const bad = await adminCall(t.app, {
      call: 'deposits/channels/update',
      token: admin.token,
      fields: { currency: 'ETH', chain: 'ERC20', min_amount: '-1' },
    });
    expect(bad.reason).toBe('AMOUNT_NOT_POSITIVE');
    await adminCall(t.app, {
      call: 'deposits/channels/update',
      token: admin.token,
      fields: { currency: 'ETH', chain: 'ERC20', open: '1', min_amount: '0.1', confirmations: '12' },
    });
    const audit = await t.db
      .selectFrom('staff_audit')
      .select('action')
      .where('action', '=', 'deposit_channel.update')
      .execute();
    expect(audit).toHaveLength(2);
  });

  it('staff release a held deposit with a reason (audited)', async () => {
    const c = await customer(t);
    const address = await addressOf(c.token, 'BTC', 'BTC');
    const held = await webhook({
      type: 'deposit',
      chain: 'BTC',
      txid: txid(),
      output_index: 0,
      address,
      currency: 'BTC',
      amount: '0.0001',
      confirmations: 6,
      status: 'success',
    });
    expect(held.data.state).toBe('held');
    const finance = await staffSession(t, ['finance']);
    const released = await adminCall(t.app, {
      call: 'deposits/crypto/release',
      token: finance.token,
      fields: { id: held.data.id, reason: 'Customer asked; fee waived' },
    });
    expect(released.data.status).toBe(2);
    expect(await spot(c.id, 'BTC')).toBe(10_000n);
  });
});
