import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { Refusal } from '../../http/refusal.ts';
import { toCsvLine } from './csv.ts';
import { generatedCatalogueCsv } from './fixtures/instruments.ts';
import { CATALOGUE_COLUMNS } from './instrument.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ feedTickMs: 0 });
});
afterAll(async () => t.close());

const HEADER = toCsvLine(CATALOGUE_COLUMNS);

const generatedCsv = (n: number) => generatedCatalogueCsv(n, 'stocks');

async function importRefusal(csv: string): Promise<Refusal> {
  try {
    await t.app.market.importCsv(csv);
  } catch (error) {
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('catalogue import', () => {
  it('imports 3,000 instruments in one go, and a second run changes nothing', async () => {
    const csv = generatedCsv(3_000);
    const started = performance.now();
    const first = await t.app.market.importCsv(csv);
    expect(first).toEqual({ rows: 3_000, inserted: 3_000, updated: 0, unchanged: 0 });
    expect(performance.now() - started).toBeLessThan(15_000);
    const second = await t.app.market.importCsv(csv);
    expect(second).toEqual({ rows: 3_000, inserted: 0, updated: 0, unchanged: 3_000 });
    const all = await call(t.app, { method: 'GET', call: 'getInstruments', fields: { page_size: '1' } });
    expect(all.data.total).toBeGreaterThanOrEqual(3_060);
  });

  it('the lists stay fast with 3,000+ instruments: search, sort and page in milliseconds', async () => {
    t.clock.set(new Date('2026-11-23T15:00:00Z')); // New York open
    await t.app.market.step();
    t.clock.advance(1_000);
    await t.app.market.step();
    await t.app.market.flushRecorder();
    const started = performance.now();
    const rounds = 20;
    for (let i = 0; i < rounds; i++) {
      const page = await call(t.app, {
        method: 'GET',
        call: 'getTickers',
        fields: { sort: 'change', order: 'desc', page_size: '100', page: String(1 + (i % 5)) },
      });
      expect(page.data.items).toHaveLength(100);
    }
    const perCallMs = (performance.now() - started) / rounds;
    expect(perCallMs).toBeLessThan(100);
    const found = await call(t.app, {
      method: 'GET',
      call: 'getTickers',
      fields: { search: 's0042', class: 'stock' },
    });
    expect(found.data.items.map((i: { symbol: string }) => i.symbol)).toEqual(['S0042.X']);
  });

  it('updates a known symbol and refuses to change the tick of one that has prices', async () => {
    const updated = `${HEADER}\nS0001.X,Renamed Company,stock,S1,USD,0.01,1,1,10,America/New_York Mon-Fri 09:30-16:00,halted,11.01,,,2001\n`;
    expect(await t.app.market.importCsv(updated)).toMatchObject({ updated: 1 });
    const row = await call(t.app, { method: 'GET', call: 'getInstruments', fields: { symbol: 'S0001.X' } });
    expect(row.data.items[0]).toMatchObject({ name: 'Renamed Company', status: 'halted', max_leverage: 10 });
    const line = await t.db
      .selectFrom('market_instrument')
      .selectAll()
      .where('symbol', '=', 'BTC/USDT')
      .executeTakeFirstOrThrow();
    const retick = `${HEADER}\n${toCsvLine([
      line.symbol,
      line.name,
      line.asset_class,
      line.base,
      line.quote,
      '0.5',
      line.lot_size,
      line.contract_size,
      String(line.max_leverage),
      line.trading_hours,
      line.status,
      '100',
      line.feed_symbol ?? '',
      line.expiry_at ? line.expiry_at.toISOString() : '',
      String(line.rank),
    ])}\n`;
    const refusal = await importRefusal(retick);
    expect(refusal.reason).toBe('IMPORT_ROW_INVALID');
    expect(refusal.params).toEqual({ line: 2, field: 'price_tick' });
  });

  it.each([
    ['a missing column', 'symbol,name\nX,Y\n', { line: 1, field: 'class' }],
    ['an unknown column', `${HEADER},colour\n`, { line: 1, field: 'colour' }],
    ['a bad symbol', 'lower/case', { line: 2, field: 'symbol' }],
    ['a bad class', 'BAD1,Bad,bonds', { line: 2, field: 'class' }],
    [
      'a price off the tick',
      'BAD2,Bad,stock,B,USD,0.05,1,1,20,24/7,active,10.01',
      { line: 2, field: 'ref_price' },
    ],
    [
      'leverage over 100',
      'BAD3,Bad,stock,B,USD,0.01,1,1,101,24/7,active,10',
      { line: 2, field: 'max_leverage' },
    ],
    [
      'bad trading hours',
      'BAD4,Bad,stock,B,USD,0.01,1,1,20,Mon-Fri 9-5,active,10',
      { line: 2, field: 'trading_hours' },
    ],
    [
      'a delivery without expiry',
      'BAD5,Bad,crypto_delivery,B,USDT,0.1,1,1,20,24/7,active,10',
      { line: 2, field: 'expiry' },
    ],
    ['a float price', 'BAD6,Bad,stock,B,USD,0.01,1,1,20,24/7,active,1e3', { line: 2, field: 'ref_price' }],
  ])('refuses %s, naming line and field, and writes nothing', async (_name, body, params) => {
    const before = await t.db
      .selectFrom('market_instrument')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const csv =
      body.startsWith('symbol') || body.startsWith(HEADER)
        ? body
        : `${HEADER}\nGOOD1,Good,stock,G,USD,0.01,1,1,20,24/7,active,10,,,\n${body}\n`;
    const refusal = await importRefusal(csv.replace(`${HEADER}\nGOOD1`, `${HEADER}\nGOOD1`));
    expect(refusal.reason).toBe('IMPORT_ROW_INVALID');
    expect(refusal.params).toEqual(
      body.startsWith('symbol') || body.startsWith(HEADER) ? params : { ...params, line: 3 },
    );
    const after = await t.db
      .selectFrom('market_instrument')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('refuses a duplicate symbol and a file over the row limit', async () => {
    const dup = `${HEADER}\nDUP1,A,stock,A,USD,0.01,1,1,20,24/7,active,10,,,\nDUP1,B,stock,B,USD,0.01,1,1,20,24/7,active,10,,,\n`;
    expect((await importRefusal(dup)).params).toEqual({ line: 3, field: 'symbol' });
    const huge = `${HEADER}\n${'X,Y\n'.repeat(20_001)}`;
    expect((await importRefusal(huge)).reason).toBe('IMPORT_TOO_LARGE');
  });
});
