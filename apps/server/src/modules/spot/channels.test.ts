import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { customer, fund, USDT } from '../assets/testing.ts';
import { connectClient, type Received } from '../market/fixtures/ws-client.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
  await t.app.market.step();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(async () => t.close());

const on = (channel: string) => (m: Received) => m.channel === channel;

describe('spot websocket channels', () => {
  it('depth snapshot then sequenced diffs; trades; private orders, fills and balances after auth', async () => {
    const seller = await customer(t);
    const buyer = await customer(t);
    await fund(t, seller.id, 'ETH', 10n ** 18n);
    await fund(t, buyer.id, 'USDT', USDT(10_000));
    const client = await connectClient(url);
    client.send({ main_type: 2, channel: 'spot_depth:ETH/USDT' });
    const snap = await client.next(on('spot_depth:ETH/USDT'));
    expect(snap).toMatchObject({
      seq: 0,
      snapshot: true,
      data: { symbol: 'ETH/USDT', book: 'real', bids: [], asks: [] },
    });
    client.send({ main_type: 2, channel: 'spot_trades:ETH/USDT' });
    await client.next(on('spot_trades:ETH/USDT'));
    // Private channel: refused before auth and for another uid.
    client.send({ main_type: 2, channel: `spot_private:${seller.uid}` });
    expect(await client.next((m) => m.main_type === 2)).toMatchObject({ reason: 'LOGIN_REQUIRED' });
    client.send({ main_type: 4, token: seller.token });
    expect(await client.next((m) => m.main_type === 4)).toMatchObject({ uid: seller.uid });
    client.send({ main_type: 2, channel: `spot_private:${buyer.uid}` });
    expect(await client.next((m) => m.main_type === 2)).toMatchObject({ reason: 'FORBIDDEN' });
    client.send({ main_type: 2, channel: `spot_private:${seller.uid}` });
    const priv = await client.next(on(`spot_private:${seller.uid}`));
    expect(priv).toMatchObject({ seq: 0, snapshot: true, data: { orders: [] } });

    const rest = await call(t.app, {
      call: 'createOrder',
      fields: { symbol: 'ETH/USDT', side: 'sell', price: '3000', quantity: '0.5' },
      headers: { token: seller.token },
    });
    expect(rest.code).toBe(1);
    expect(await client.next(on('spot_depth:ETH/USDT'))).toMatchObject({
      seq: 1,
      data: { asks: [['3000', '0.5']], bids: [] },
    });
    expect(await client.next(on(`spot_private:${seller.uid}`))).toMatchObject({
      seq: 1,
      data: { type: 'order', order: { status: 'unfilled' } },
    });
    const afterRest = await client.next(on(`spot_private:${seller.uid}`));
    expect(afterRest).toMatchObject({ seq: 2, data: { type: 'balance' } });
    await call(t.app, {
      call: 'createOrder',
      fields: { symbol: 'ETH/USDT', side: 'buy', price: '3000', quantity: '0.2' },
      headers: { token: buyer.token },
    });
    expect(await client.next(on('spot_depth:ETH/USDT'))).toMatchObject({
      seq: 2,
      data: { asks: [['3000', '0.3']] },
    });
    expect(await client.next(on('spot_trades:ETH/USDT'))).toMatchObject({
      seq: 1,
      data: { items: [{ price: '3000', quantity: '0.2', side: 'buy' }] },
    });
    const messages: Received[] = [];
    for (let i = 0; i < 3; i++) messages.push(await client.next(on(`spot_private:${seller.uid}`)));
    expect(messages.map((m) => m.seq)).toEqual([3, 4, 5]);
    const types = messages.map((m) => (m.data as { type: string }).type);
    expect(types).toEqual(['order', 'fill', 'balance']);
    const balance = (
      (messages[2] as Received).data as { balances: Array<{ currency: string; frozen: string }> }
    ).balances;
    expect(balance.find((b) => b.currency === 'ETH')?.frozen).toBe('0.3');
    client.close();
  });
});
