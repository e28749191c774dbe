import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RiskRating } from '@bourse/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp, testNow } from '../../../test/harness.ts';
import { type Customer, customer, customerSnapshot, fund, USDT } from '../assets/testing.ts';
import { staffSession } from '../staff/testing.ts';
import { DEFAULT_CAPS } from './defaults.ts';
import { ANSWERS, ratedCustomer } from './testing.ts';

/**
 * Every route that invests today enforces the rating's caps on the real book: contract quotes and
 * opens (leverage, margin per order) and option buys (stake). Over the cap: refused naming the
 * rating and the cap, nothing written; at the cap: accepted. Property tests draw the rating and
 * the value; the expected answer comes from the seeded table (defaults.ts), not from the module.
 */
const START = testNow().getTime();
const PERP = 'BTC/USDT-PERP';
const line = (symbol: string, price: string) =>
  JSON.stringify({ time: START, symbol, price, bid: price, ask: price, mark: price });

let t: TestApp;
let dir: string;
let staff: { staffId: string; sessionId: string; roles: ['administrator'] };
const people = {} as Record<RiskRating, Customer>;
const caps = DEFAULT_CAPS.permissive;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-suitability-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, `${[line(PERP, '95000.0'), line('BTC/USDT', '100000.00')].join('\n')}\n`);
  t = await startTestApp({
    feed: 'replay',
    replayFile: file,
    replayLoop: false,
    feedTickMs: 0,
    staleAfterMs: 3_600_000,
  });
  await t.db
    .updateTable('contracts_setting')
    .set({ spread: '0.1', min_lots: '0.001', max_lots: '10' })
    .where('symbol', '=', PERP)
    .execute();
  const s = await staffSession(t, ['administrator']);
  staff = { staffId: s.staffId, sessionId: 's', roles: ['administrator'] };
  await t.app.market.step();
  await t.app.market.flushRecorder();
  await t.app.contracts.engine.step();
  people.not_assessed = await customer(t);
  for (const r of ['conservative', 'balanced', 'aggressive'] as const) people[r] = await ratedCustomer(t, r);
  for (const c of Object.values(people)) {
    await fund(t, c.id, 'USDT', USDT(100_000), 'contract');
    await fund(t, c.id, 'USDT', USDT(20_000), 'options');
  }
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const RATINGS: RiskRating[] = ['not_assessed', 'conservative', 'balanced', 'aggressive'];

const quote = (token: string | null, fields: Record<string, string>) =>
  call(t.app, {
    method: 'GET',
    call: 'getContractQuote',
    fields: { symbol: PERP, side: 'buy', ...fields },
    headers: token ? { token } : {},
  });

const open = (token: string, fields: Record<string, string>) =>
  call(t.app, {
    call: 'openContract',
    fields: { symbol: PERP, side: 'buy', type: 'market', ...fields },
    headers: { token },
  });

const buy = (token: string, stake: string, lang = 'en') =>
  call(t.app, {
    call: 'buyOption',
    fields: { symbol: 'BTC/USDT', direction: 'up', stake, duration: '60', lang },
    headers: { token },
  });

describe('contracts: the rating caps leverage and margin per order (real book)', () => {
  it('quotes: leverage over the cap is refused naming rating and cap, up to the cap accepted', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RATINGS),
        fc.integer({ min: 1, max: 100 }),
        async (rating, leverage) => {
          const cap = caps[rating].contracts.max_leverage as number;
          const q = await quote(people[rating].token, { lots: '0.001', leverage: String(leverage) });
          if (leverage > cap) {
            expect(q).toMatchObject({
              reason: 'RATING_CAP_EXCEEDED',
              params: { rating, product: 'contracts', cap: `${cap}×`, field: 'leverage' },
            });
          } else {
            expect(q.code).toBe(1);
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('quotes: a margin over the cap is refused, at or under it accepted (the oracle: the anonymous quote)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RATINGS), fc.integer({ min: 1, max: 3_000 }), async (rating, k) => {
        const lots = (k / 1000).toFixed(3);
        const anonymous = await quote(null, { lots, leverage: '1' });
        expect(anonymous.code).toBe(1);
        const [whole = '0', frac = ''] = anonymous.data.margin.split('.');
        const marginUnits = BigInt(whole) * 10n ** 8n + BigInt(frac.padEnd(8, '0'));
        const capUnits = USDT(BigInt(caps[rating].contracts.max_amount));
        const q = await quote(people[rating].token, { lots, leverage: '1' });
        if (marginUnits > capUnits) {
          expect(q).toMatchObject({
            reason: 'RATING_CAP_EXCEEDED',
            params: {
              rating,
              product: 'contracts',
              cap: `${caps[rating].contracts.max_amount} USDT`,
              field: 'margin',
            },
          });
        } else {
          expect(q.code).toBe(1);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('opens: at the cap accepted, one over refused in every language with nothing written', async () => {
    const b = people.balanced;
    const at = await open(b.token, { lots: '0.01', leverage: '50' });
    expect(at.code).toBe(1);
    expect(at.data.order).toMatchObject({ leverage: 50, book: 'real' });
    const before = await customerSnapshot(t, b.id);
    for (const [lang, words] of [
      ['en', ['balanced', '50×', 'leverage', 'contracts']],
      ['zh', ['平衡型', '50×', '杠杆', '合约']],
      ['ft', ['平衡型', '50×', '槓桿', '合約']],
    ] as const) {
      const over = await open(b.token, { lots: '0.01', leverage: '51', lang });
      expect(over).toMatchObject({
        reason: 'RATING_CAP_EXCEEDED',
        params: { rating: 'balanced', product: 'contracts', cap: '50×', field: 'leverage' },
      });
      for (const w of words) expect(over.msg).toContain(w);
    }
    // margin: not assessed, 5×, 0.03 lots of 95,000 = 570 USDT margin > 500
    const n = people.not_assessed;
    const nBefore = await customerSnapshot(t, n.id);
    const big = await open(n.token, { lots: '0.03', leverage: '5' });
    expect(big).toMatchObject({
      reason: 'RATING_CAP_EXCEEDED',
      params: { rating: 'not_assessed', product: 'contracts', cap: '500 USDT', field: 'margin' },
    });
    expect(big.msg).toContain('not assessed');
    expect(await customerSnapshot(t, n.id)).toEqual(nBefore);
    expect(await customerSnapshot(t, b.id)).toEqual(before);
    // 0.025 lots at 5× = 475 USDT margin: accepted
    expect((await open(n.token, { lots: '0.025', leverage: '5' })).code).toBe(1);
  });

  it("shows each customer the maximum leverage their rating allows; anonymous and demo see the instrument's", async () => {
    const list = async (token: string | null) =>
      (
        await call(t.app, {
          method: 'GET',
          call: 'getContracts',
          fields: { symbol: PERP },
          headers: token ? { token } : {},
        })
      ).data.items[0].max_leverage;
    expect(await list(null)).toBe(100);
    for (const r of RATINGS) expect(await list(people[r].token)).toBe(caps[r].contracts.max_leverage);
    const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
    expect(await list(demo.data.token)).toBe(100);
    // the demo book is play money: not capped
    expect((await quote(demo.data.token, { lots: '1', leverage: '100' })).code).toBe(1);
  });

  it('eu_retail: no leveraged product before the questionnaire; the jurisdiction cap still applies after', async () => {
    await t.app.jurisdiction.select(staff, { profile: 'eu_retail', reason: 'suitability test' });
    try {
      const blocked = await quote(people.not_assessed.token, { lots: '0.001', leverage: '1' });
      expect(blocked).toMatchObject({
        reason: 'RATING_PRODUCT_BLOCKED',
        params: { rating: 'not_assessed', product: 'contracts' },
      });
      const c = people.conservative;
      // crypto under eu_retail: 2× (ESMA), the conservative cap is 2× too
      const list = await call(t.app, {
        method: 'GET',
        call: 'getContracts',
        fields: { symbol: PERP },
        headers: { token: people.aggressive.token },
      });
      expect(list.data.items[0].max_leverage).toBe(2);
      expect((await quote(c.token, { lots: '0.001', leverage: '2' })).code).toBe(1);
    } finally {
      await t.app.jurisdiction.select(staff, { profile: 'permissive', reason: 'suitability test done' });
    }
  });
});

describe('options: the rating caps the stake per order (real book)', () => {
  const LOW: RiskRating[] = ['not_assessed', 'conservative', 'balanced'];

  it('a stake over the cap is refused naming rating and cap, and nothing is written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...LOW),
        fc.integer({ min: 1, max: 1_000_000 }),
        async (rating, extraCents) => {
          const cap = BigInt(caps[rating].options.max_amount);
          const cents = cap * 100n + BigInt(extraCents);
          if (cents > 1_000_000n) return; // above the instrument's 10,000 maximum: its own rule
          const stake = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
          const c = people[rating];
          const before = await customerSnapshot(t, c.id);
          const answer = await buy(c.token, stake);
          expect(answer).toMatchObject({
            reason: 'RATING_CAP_EXCEEDED',
            params: { rating, product: 'options', cap: `${cap} USDT`, field: 'stake' },
          });
          expect(await customerSnapshot(t, c.id)).toEqual(before);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('at the cap accepted, a hundred-millionth over refused', async () => {
    for (const rating of LOW) {
      const cap = caps[rating].options.max_amount;
      const c = people[rating];
      const at = await buy(c.token, cap);
      expect(at.code).toBe(1);
      expect(at.data).toMatchObject({ book: 'real', stake: cap });
      const over = await buy(c.token, `${cap}.00000001`, 'zh');
      expect(over).toMatchObject({ reason: 'RATING_CAP_EXCEEDED', params: { rating, cap: `${cap} USDT` } });
      expect(over.msg).toContain('涨跌期权');
    }
    // aggressive: the instrument's maximum (10,000) is the tighter rule
    expect((await buy(people.aggressive.token, '10000')).code).toBe(1);
  });

  it('a customer who retakes the questionnaire gets the new caps at once', async () => {
    const c = await customer(t);
    await fund(t, c.id, 'USDT', USDT(1_000), 'options');
    expect((await buy(c.token, '100')).reason).toBe('RATING_CAP_EXCEEDED');
    await t.app.suitability.submit(c.id, ANSWERS.balanced);
    expect((await buy(c.token, '100')).code).toBe(1);
  });
});
