import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTestDatabase,
  registerByEmail,
  startTestApp,
  type TestApp,
  testNow,
} from '../../../test/harness.ts';
import { buildApp, loggerOptions } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createDb } from '../../db/database.ts';
import { manualClock } from '../../lib/clock.ts';
import { isRoutingNumber } from './book.ts';
import { addAddress, customer, ERC20_ADDRESS, WEBHOOK_SECRET } from './testing.ts';

const CARD = '6222020200112233445';
const BANK = {
  bank_name: 'Hang Seng Bank',
  bank_account: 'CHAN TAI MAN',
  card_number: CARD,
  swift_code: 'HASEHKHH',
  routing_number: '026009593',
  bank_address: '83 Des Voeux Road Central, Hong Kong',
  bank_phone: '+852 2822 0228',
  payee_name: 'Chan Tai Man',
  payee_phone: '+852 9123 4567',
  payee_address: '1 Queen’s Road, Hong Kong',
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ custodyWebhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => t?.close());

describe('withdrawal addresses', () => {
  it('adds, lists (newest first) and deletes; checks the address per network', async () => {
    const c = await customer(t, { trade: false });
    const lower = ERC20_ADDRESS.toLowerCase();
    const added = await call(t.app, {
      call: 'addAddress',
      fields: {
        token: c.token,
        currency: 'USDT',
        chain: 'ERC20',
        address: lower,
        remark: 'Ledger',
        memo: '',
      },
    });
    expect(added.code).toBe(1);
    expect(added.data.address).toBe(ERC20_ADDRESS);
    const dup = await call(t.app, {
      call: 'addAddress',
      fields: { token: c.token, currency: 'USDT', chain: 'ERC20', address: ERC20_ADDRESS },
    });
    expect(dup.reason).toBe('ADDRESS_EXISTS');
    const badSum = await call(t.app, {
      call: 'addAddress',
      fields: {
        token: c.token,
        currency: 'USDT',
        chain: 'ERC20',
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD',
      },
    });
    expect(badSum.reason).toBe('ADDRESS_INVALID');
    expect(badSum.params).toEqual({ chain: 'ERC20' });
    t.clock.advance(1000);
    const tron = await call(t.app, {
      call: 'addAddress',
      fields: {
        token: c.token,
        currency: 'USDT',
        chain: 'TRC20',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        memo: '12345',
      },
    });
    expect(tron.code).toBe(1);
    t.clock.advance(1000);
    const btcOnTron = await call(t.app, {
      call: 'addAddress',
      fields: {
        token: c.token,
        currency: 'BTC',
        chain: 'TRC20',
        address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      },
    });
    expect(btcOnTron.reason).toBe('ADDRESS_CHAIN_UNSUPPORTED');
    const btc = await call(t.app, {
      call: 'addAddress',
      fields: {
        token: c.token,
        currency: 'BTC',
        chain: 'BTC',
        address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      },
    });
    expect(btc.code).toBe(1);
    const unknown = await call(t.app, {
      call: 'addAddress',
      fields: { token: c.token, currency: 'DOGE', chain: 'BTC', address: 'x' },
    });
    expect(unknown.reason).toBe('CURRENCY_UNKNOWN');
    const list = await call(t.app, { method: 'GET', call: 'getAddressList', fields: { token: c.token } });
    expect(list.data.list.map((a: { chain: string }) => a.chain)).toEqual(['BTC', 'TRC20', 'ERC20']);
    const usdt = await call(t.app, {
      method: 'GET',
      call: 'getAddressList',
      fields: { token: c.token, currency: 'USDT' },
    });
    expect(usdt.data.list).toHaveLength(2);
    const del = await call(t.app, {
      call: 'delAddress',
      fields: { token: c.token, address_id: added.data.id },
    });
    expect(del.code).toBe(1);
    const delAgain = await call(t.app, {
      call: 'delAddress',
      fields: { token: c.token, address_id: added.data.id },
    });
    expect(delAgain.reason).toBe('NOT_FOUND');
  });

  it("another customer's address is neither listed nor deletable (NOT_FOUND, nothing changed)", async () => {
    const a = await customer(t, { trade: false });
    const b = await customer(t, { trade: false });
    const id = await addAddress(t, a.token);
    const listB = await call(t.app, { method: 'GET', call: 'getAddressList', fields: { token: b.token } });
    expect(listB.data.list).toEqual([]);
    const del = await call(t.app, { call: 'delAddress', fields: { token: b.token, address_id: id } });
    expect(del.reason).toBe('NOT_FOUND');
    const listA = await call(t.app, { method: 'GET', call: 'getAddressList', fields: { token: a.token } });
    expect(listA.data.list).toHaveLength(1);
  });
});

describe('bank cards and wallets', () => {
  it('routing numbers carry the ABA check digit', () => {
    expect(isRoutingNumber('026009593')).toBe(true);
    expect(isRoutingNumber('021000021')).toBe(true);
    expect(isRoutingNumber('026009594')).toBe(false);
    expect(isRoutingNumber('12345678')).toBe(false);
  });

  it('binds a card: masked in answers, sealed at rest (no digit of the card number in the row)', async () => {
    const c = await customer(t, { trade: false });
    const added = await call(t.app, { call: 'addBank', fields: { token: c.token, ...BANK } });
    expect(added.code).toBe(1);
    expect(added.data.card_number).toBe('**** 3445');
    expect(JSON.stringify(added.data)).not.toContain(CARD);
    const list = await call(t.app, { method: 'GET', call: 'getBankList', fields: { token: c.token } });
    expect(list.data.list).toHaveLength(1);
    expect(list.data.list[0]).toMatchObject({
      bank_name: 'Hang Seng Bank',
      card_number: '**** 3445',
      swift_code: '**** HKHH',
    });
    expect(JSON.stringify(list.data)).not.toContain(CARD);
    expect(JSON.stringify(list.data)).not.toContain('026009593');

    const raw = await t.db
      .selectFrom('withdrawals_payee')
      .selectAll()
      .where('customer_id', '=', c.customerId)
      .execute();
    expect(raw).toHaveLength(1);
    const text = JSON.stringify(raw[0]);
    for (const secret of [
      CARD,
      CARD.slice(-4),
      CARD.slice(0, 6),
      'HASEHKHH',
      '026009593',
      'Chan Tai Man',
      'Hang Seng',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(raw[0]?.sealed).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('refuses bad card fields by name and writes nothing', async () => {
    const c = await customer(t, { trade: false });
    const cases: Array<[Record<string, string>, string]> = [
      [{ card_number: '12-34' }, 'card_number'],
      [{ swift_code: 'HASE' }, 'swift_code'],
      [{ routing_number: '026009594' }, 'routing_number'],
      [{ bank_phone: 'call me' }, 'bank_phone'],
    ];
    for (const [patch, field] of cases) {
      const r = await call(t.app, { call: 'addBank', fields: { token: c.token, ...BANK, ...patch } });
      expect(r.reason, field).toBe('BAD_INPUT');
      expect(r.params).toEqual({ field });
    }
    const blank = await call(t.app, {
      call: 'addBank',
      fields: { token: c.token, ...BANK, payee_name: '  ' },
    });
    expect(blank.reason).toBe('FIELD_REQUIRED');
    const rows = await t.db
      .selectFrom('withdrawals_payee')
      .selectAll()
      .where('customer_id', '=', c.customerId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('binds wallets, masked; another customer cannot unbind them', async () => {
    const a = await customer(t, { trade: false });
    const b = await customer(t, { trade: false });
    const added = await call(t.app, {
      call: 'addWallet',
      fields: {
        token: a.token,
        wallet_type: 'alipay',
        wallet_account: 'chan.taiman@example.com',
        payee_name: 'Chan',
      },
    });
    expect(added.code).toBe(1);
    expect(added.data.wallet_account).toBe('ch****om');
    const badType = await call(t.app, {
      call: 'addWallet',
      fields: { token: a.token, wallet_type: 'paypal', wallet_account: 'x', payee_name: 'Chan' },
    });
    expect(badType.reason).toBe('BAD_INPUT');
    const del = await call(t.app, { call: 'delPayee', fields: { token: b.token, payee_id: added.data.id } });
    expect(del.reason).toBe('NOT_FOUND');
    const list = await call(t.app, { method: 'GET', call: 'getWalletList', fields: { token: a.token } });
    expect(list.data.list).toHaveLength(1);
  });
});

describe('logs', () => {
  it('a logged bank-card request carries no card number', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const database = await createTestDatabase();
    const handle = createDb(database.url, { max: 4 });
    const config = Object.freeze({
      ...loadConfig({ LOG_LEVEL: 'trace' }),
      demoContent: false,
      webDist: '/nonexistent',
      adminDist: '/nonexistent',
      simHistoryCandles: 0,
      custodyWebhookSecret: WEBHOOK_SECRET,
    });
    const app = await buildApp({
      config,
      db: handle.db,
      secret: 'log-test-secret-log-test-secret-!!',
      clock: manualClock(new Date('2026-11-21T04:00:00Z')),
      logger: pino(loggerOptions(config), stream),
    });
    try {
      await app.ready();
      const local = { app, db: handle.db, clock: manualClock(testNow()), config, close: async () => {} };
      const { token } = await registerByEmail(local, 'log-check@example.com');
      const added = await call(app, { call: 'addBank', fields: { token, ...BANK } });
      expect(added.code).toBe(1);
      await call(app, { method: 'GET', call: 'getBankList', fields: { token } });
      const bad = await call(app, { call: 'addBank', fields: { token, ...BANK, swift_code: 'X' } });
      expect(bad.reason).toBe('BAD_INPUT');
      const text = lines.join('');
      expect(text).toContain('addBank');
      expect(text).not.toContain(CARD);
      expect(text).not.toContain('HASEHKHH');
    } finally {
      await app.close();
      await handle.db.destroy();
      await database.drop();
    }
  });
});
