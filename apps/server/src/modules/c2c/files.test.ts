import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';
import { cget, cpost, markPaid, merchant, offer, proof, staffOf, verifiedCustomer } from './testing.ts';

/**
 * Both sides of an order open its files — the remittance proof, dispute evidence, chat attachments —
 * through short-lived links (`c2cFileLink`); nobody else does, and no file outside the order.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 120_000);
afterAll(async () => t?.close());

describe('C2C files: either party, nobody else', () => {
  it('the merchant opens the buyer’s proof and a chat attachment; a stranger and a foreign file get NOT_FOUND', async () => {
    const staff = await staffOf(t);
    const m = await merchant(t, staff);
    const offerId = await offer(t, staff, m.merchantId);
    const buyer = await verifiedCustomer(t);
    const created = await cpost(t, buyer, 'c2cCreateOrder', {
      offer_id: offerId,
      amount: '20',
      method: 'bank',
    });
    expect(created.code, created.msg).toBe(1);
    const id = created.data.order_id as string;
    const paid = await markPaid(t, buyer, id);
    expect(paid.code, paid.msg).toBe(1);
    const proofId = paid.data.proof_id as string;

    const link = await cget(t, m.customer, 'c2cFileLink', { order_id: id, file_id: proofId });
    expect(link.code, link.msg).toBe(1);
    const served = await t.app.inject({ method: 'GET', url: link.data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\//);

    const attachment = await proof(t, m.customer);
    const sent = await cpost(t, m.customer, 'c2cSendMessage', {
      order_id: id,
      body: 'receipt',
      file_id: attachment,
    });
    expect(sent.code, sent.msg).toBe(1);
    const theirs = await cget(t, buyer, 'c2cFileLink', { order_id: id, file_id: attachment });
    expect(theirs.code, theirs.msg).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: theirs.data.url })).statusCode).toBe(200);

    const stranger = await verifiedCustomer(t);
    expect((await cget(t, stranger, 'c2cFileLink', { order_id: id, file_id: proofId })).reason).toBe(
      'NOT_FOUND',
    );
    // A file of the buyer's not attached to this order (not yet claimed by anything).
    const loose = await proof(t, buyer);
    expect((await cget(t, m.customer, 'c2cFileLink', { order_id: id, file_id: loose })).reason).toBe(
      'NOT_FOUND',
    );
    // A party link cannot be re-pointed at another file: the signature covers the file.
    const forged = String(link.data.url).replace(proofId, attachment);
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBeGreaterThanOrEqual(400);
  });
});
