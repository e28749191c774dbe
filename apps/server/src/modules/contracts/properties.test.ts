import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ratioFromDecimal, reachesLevel, riskRate } from '@bourse/risk';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { call, startTestApp, type TestApp } from '../../../test/harness.ts';
import { fund, ledgerOf, USDT } from '../assets/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';
import { mathOf, storedPrice } from './math.ts';

/**
 * Issue 6's property: random price paths on a scripted replay feed (small moves and shocks of up to
 * ±30 %) interleaved with random customer actions — market opens on both sides at leverages up to
 * 100 with and without TP/SL, limit orders, partial and full closes, close-all, margin top-ups and
 * cancels, by two real customers and one demo customer. Each run is a fresh app and database.
 * After EVERY engine round:
 *  - the ledger verifies;
 *  - no open position's risk rate at the round's mark reaches its liquidation level (@bourse/risk);
 *  - per book, the customers' contract USDT + contract_house + insurance + insurance_capital +
 *    fee_income equals what was paid in: no minor unit is created or lost;
 *  - each customer's frozen USDT = Σ open positions' margin + Σ pending orders' margin and fee.
 * Counters assert that every flow happened across the runs. Seed: PROPERTY_SEED (printed).
 */
const SEED = Number(process.env.PROPERTY_SEED ?? 20261121);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 15);
const S = Date.parse('2026-11-21T04:00:00Z');
const PERP = 'BTC/USDT-PERP';
const FUNDED = [USDT(3_000), USDT(1_000)];
const DEMO_FUNDED = USDT(2_000);
const INSURANCE = USDT(50); // small on purpose: big shocks also exercise the uncovered path
const ALLOWED = new Set([
  'INSUFFICIENT_BALANCE',
  'TP_MUST_BE_ABOVE',
  'TP_MUST_BE_BELOW',
  'SL_MUST_BE_ABOVE',
  'SL_MUST_BE_BELOW',
  'POSITION_NOT_OPEN',
  'CLOSE_LOTS_ABOVE_OPEN',
  'MARGIN_TOPUP_ABOVE_MAX',
  'CONTRACT_OPEN_LIMIT',
  'CONTRACT_ORDER_NOT_PENDING',
  'LOTS_STEP',
]);

type Action =
  | {
      k: 'open';
      c: number;
      side: 'buy' | 'sell';
      lots: number;
      lev: number;
      tp: number | null;
      sl: number | null;
    }
  | { k: 'limit'; c: number; side: 'buy' | 'sell'; lots: number; lev: number; awayBps: number }
  | { k: 'close'; pick: number; quarters: number }
  | { k: 'closeAll'; c: number }
  | { k: 'topup'; pick: number; amount: number }
  | { k: 'cancel'; pick: number };
type Step = { moveBps: number; shockBps: number | null; actions: Action[] };

const customerIx = fc.integer({ min: 0, max: 2 });
const side = fc.constantFrom<'buy' | 'sell'>('buy', 'sell');
const lots = fc.integer({ min: 1, max: 150 }); // × 0.001
const lev = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.constantFrom(20, 50, 100));
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('open' as const),
      c: customerIx,
      side,
      lots,
      lev,
      tp: fc.option(fc.integer({ min: 5, max: 800 }), { freq: 3 }),
      sl: fc.option(fc.integer({ min: 5, max: 800 }), { freq: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('limit' as const),
      c: customerIx,
      side,
      lots,
      lev,
      awayBps: fc.integer({ min: -200, max: 600 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('close' as const),
      pick: fc.nat(),
      quarters: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closeAll' as const), c: customerIx }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('topup' as const),
      pick: fc.nat(),
      amount: fc.integer({ min: 1, max: 600 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), pick: fc.nat() }) },
);
const stepArb: fc.Arbitrary<Step> = fc.record({
  moveBps: fc.integer({ min: -120, max: 120 }),
  shockBps: fc.option(fc.integer({ min: -3_000, max: 3_000 }), { freq: 6 }),
  actions: fc.array(action, { maxLength: 3 }),
});
const pathArb = fc.array(stepArb, { minLength: 6, maxLength: 16 });

/** BTC/USDT-PERP price units (tick 0.1 = 1 unit at scale 1). */
function pricePath(steps: readonly Step[]): bigint[] {
  const out: bigint[] = [];
  let p = 950_000n; // 95000.0
  for (const s of [{ moveBps: 0, shockBps: null }, ...steps]) {
    p = (p * BigInt(10_000 + s.moveBps)) / 10_000n;
    if (s.shockBps !== null) p = (p * BigInt(10_000 + s.shockBps)) / 10_000n;
    if (p < 10_000n) p = 10_000n;
    out.push(p);
  }
  return out;
}
const text = (units: bigint) => `${units / 10n}.${units % 10n}`;
const lotsText = (n: number) => (n / 1000).toFixed(3); // n is an integer < 1000: exact
const tickLine = (ms: number, p: bigint) =>
  JSON.stringify({
    time: ms,
    symbol: PERP,
    price: text(p + 1n),
    bid: text(p),
    ask: text(p + 2n),
    mark: text(p + 1n),
  });

const counters: Record<string, number> = {};
const count = (name: string) => {
  counters[name] = (counters[name] ?? 0) + 1;
};

let current: TestApp | null = null;
afterAll(async () => {
  await current?.close();
});

async function runScenario(steps: readonly Step[]): Promise<void> {
  const prices = pricePath(steps);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-contracts-prop-'));
  const file = path.join(dir, 'ticks.jsonl');
  fs.writeFileSync(file, `${prices.map((p, i) => tickLine(S + i * 1_000, p)).join('\n')}\n`);
  const t = await startTestApp({ feed: 'replay', replayFile: file, replayLoop: false, feedTickMs: 0 });
  current = t;
  try {
    await scenario(t, steps, prices);
  } finally {
    current = null;
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function scenario(t: TestApp, steps: readonly Step[], prices: readonly bigint[]): Promise<void> {
  const ledger = ledgerOf(t);
  const i = t.app.market.instrument(PERP);
  const m = mathOf(i, ratioFromDecimal('1'));
  await t.db
    .updateTable('contracts_setting')
    .set({ spread: '0.1', fee_per_lot: '2', liquidation_level: '0.8', margin_topup_max: '500' })
    .where('symbol', '=', PERP)
    .execute();
  const tick = async (ix: number) => {
    t.clock.set(new Date(S + ix * 1_000));
    await t.app.market.step();
    await t.app.market.flushRecorder();
  };
  await tick(0);
  await t.app.contracts.engine.step();
  const people: Array<{ id: string; token: string; book: 'real' | 'demo' }> = [];
  for (const amount of FUNDED) {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', amount, 'contract');
    people.push({ id: c.id, token: c.token, book: 'real' });
  }
  const demo = await call(t.app, { method: 'GET', call: 'tempLogin', fields: {} });
  const demoId = (
    await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('uid', '=', demo.data.uid)
      .executeTakeFirstOrThrow()
  ).id;
  await ledger.transfer(t.db, {
    book: 'demo',
    customerId: demoId,
    currency: 'USDT',
    fromType: 'spot',
    toType: 'contract',
    amountUnits: DEMO_FUNDED,
    reference: { type: 'test', id: 'demo-contract' },
    idempotencyKey: `prop-demo-${demoId}`,
  });
  people.push({ id: demoId, token: demo.data.token, book: 'demo' });
  await ledger.post(t.db, {
    reason: 'contract.insurance.fund',
    reference: { type: 'test', id: 'insurance' },
    idempotencyKey: 'prop-insurance',
    postings: [
      { account: { book: 'real', platform: 'insurance_capital' }, currency: 'USDT', amountUnits: -INSURANCE },
      { account: { book: 'real', platform: 'insurance' }, currency: 'USDT', amountUnits: INSURANCE },
    ],
  });
  const tokenOf = new Map(people.map((p) => [p.id, p.token]));

  const expectOk = (answer: { code: number; reason?: string; status?: number }, what: string) => {
    if (answer.code === 1) {
      count(what);
      return true;
    }
    if (!answer.reason || !ALLOWED.has(answer.reason))
      throw new Error(`${what}: unexpected answer ${JSON.stringify(answer)}`);
    count(`refused:${answer.reason}`);
    return false;
  };
  const send = (token: string, c: string, fields: Record<string, string>) =>
    call(t.app, { call: c, fields, headers: { token } });

  for (let s = 0; s < steps.length; s++) {
    const step = steps[s] as Step;
    const price = prices[s] as bigint; // the ticker the actions see
    for (const a of step.actions) {
      if (a.k === 'open' || a.k === 'limit') {
        const who = people[a.c] as (typeof people)[number];
        const fields: Record<string, string> = {
          symbol: PERP,
          side: a.side,
          lots: lotsText(a.lots),
          leverage: String(a.lev),
        };
        if (a.k === 'open') {
          const up = (bps: number) => text((price * BigInt(10_000 + bps)) / 10_000n);
          const down = (bps: number) => text((price * BigInt(10_000 - bps)) / 10_000n);
          if (a.tp !== null) fields.tp_price = a.side === 'buy' ? up(a.tp) : down(a.tp);
          if (a.sl !== null) fields.sl_price = a.side === 'buy' ? down(a.sl) : up(a.sl);
          if (expectOk(await send(who.token, 'openContract', fields), 'open')) {
            if (a.tp !== null || a.sl !== null) count('open with TP/SL');
            if (a.lev >= 50) count('open at ≥ 50x');
            count(`open ${a.side}`);
          }
        } else {
          fields.type = 'limit';
          // away from the market (> 0: waits; < 0: marketable at once, filled by the next round)
          const bps = a.side === 'buy' ? -a.awayBps : a.awayBps;
          fields.price = text((price * BigInt(10_000 + bps)) / 10_000n);
          expectOk(await send(who.token, 'openContract', fields), 'limit placed');
        }
      } else if (a.k === 'close' || a.k === 'topup') {
        const open = await t.db
          .selectFrom('contracts_position')
          .select(['id', 'customer_id', 'lots_units'])
          .where('status', '=', 'open')
          .orderBy('id')
          .execute();
        if (open.length === 0) continue;
        const p = open[a.pick % open.length] as (typeof open)[number];
        const token = tokenOf.get(p.customer_id) as string;
        if (a.k === 'topup') {
          expectOk(
            await send(token, 'addContractMargin', { position_id: p.id, amount: String(a.amount) }),
            'topup',
          );
        } else {
          const held = BigInt(p.lots_units) / 100_000n; // in 0.001 steps (LOTS_SCALE 8)
          const part = a.quarters === 0 ? null : (held * BigInt(a.quarters)) / 4n;
          const fields: Record<string, string> = { position_id: p.id };
          if (part !== null && part > 0n && part < held) fields.lots = lotsText(Number(part));
          expectOk(await send(token, 'closeContract', fields), fields.lots ? 'partial close' : 'full close');
        }
      } else if (a.k === 'closeAll') {
        const who = people[a.c] as (typeof people)[number];
        const answer = await send(who.token, 'closeAllContracts', { symbol: PERP });
        if (expectOk(answer, 'closeAll') && answer.data.closed.length > 0) count('closeAll closed some');
      } else {
        const pending = await t.db
          .selectFrom('contracts_order')
          .select(['id', 'customer_id'])
          .where('status', '=', 'pending')
          .orderBy('id')
          .execute();
        if (pending.length === 0) continue;
        const o = pending[a.pick % pending.length] as (typeof pending)[number];
        expectOk(
          await send(tokenOf.get(o.customer_id) as string, 'cancelContractOrder', { order_id: o.id }),
          'cancel',
        );
      }
    }
    await tick(s + 1);
    await t.app.contracts.engine.step();
    await checkInvariants(t, { m, i, markUnits: (prices[s + 1] as bigint) + 1n, people });
  }
  const closes = await t.db
    .selectFrom('contracts_close')
    .select(['reason', 'insurance_covered_units', 'uncovered_units'])
    .execute();
  for (const c of closes) {
    count(`close:${c.reason}`);
    if (c.insurance_covered_units !== '0') count('insurance covered');
    if (c.uncovered_units !== '0') count('insurance exhausted');
  }
  const fills = await t.db
    .selectFrom('contracts_order')
    .select(['status', 'cancel_reason'])
    .where('type', '=', 'limit')
    .execute();
  for (const o of fills) count(`limit ${o.status}${o.cancel_reason ? `:${o.cancel_reason}` : ''}`);
}

async function checkInvariants(
  t: TestApp,
  input: {
    m: ReturnType<typeof mathOf>;
    i: Parameters<typeof storedPrice>[0];
    markUnits: bigint;
    people: ReadonlyArray<{ id: string; book: 'real' | 'demo' }>;
  },
): Promise<void> {
  const ledger = ledgerOf(t);
  const report = await ledger.verify();
  expect(
    report.ok,
    JSON.stringify(report, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
  ).toBe(true);
  const open = await t.db.selectFrom('contracts_position').selectAll().where('status', '=', 'open').execute();
  for (const p of open) {
    const rate = riskRate(
      input.m,
      p.side,
      storedPrice(input.i, p.open_price),
      input.markUnits,
      BigInt(p.lots_units),
      BigInt(p.margin_units),
    );
    const level = ratioFromDecimal(p.liquidation_level);
    expect(
      reachesLevel(rate, level),
      `position ${p.id} at risk ${rate.num}/${rate.den} after the round`,
    ).toBe(false);
  }
  const pending = await t.db
    .selectFrom('contracts_order')
    .selectAll()
    .where('status', '=', 'pending')
    .execute();
  for (const book of ['real', 'demo'] as const) {
    let total = 0n;
    for (const who of input.people.filter((p) => p.book === book)) {
      const b = await ledger.balance(t.db, {
        book,
        customerId: who.id,
        accountType: 'contract',
        currency: 'USDT',
      });
      expect(b.availableUnits >= 0n && b.frozenUnits >= 0n).toBe(true);
      total += b.availableUnits + b.frozenUnits;
      const held =
        open.filter((p) => p.customer_id === who.id).reduce((sum, p) => sum + BigInt(p.margin_units), 0n) +
        pending
          .filter((o) => o.customer_id === who.id)
          .reduce((sum, o) => sum + BigInt(o.margin_units) + BigInt(o.fee_units), 0n);
      expect(b.frozenUnits, `frozen of ${who.id}`).toBe(held);
    }
    for (const platform of ['contract_house', 'insurance', 'insurance_capital', 'fee_income'] as const) {
      const rows = await ledger.platformBalances(t.db, { book, platform });
      const units = rows.find((r) => r.currency === 'USDT')?.availableUnits ?? 0n;
      if (platform === 'insurance') expect(units >= 0n).toBe(true);
      total += units;
    }
    const putIn = book === 'real' ? FUNDED.reduce((a, b) => a + b, 0n) : DEMO_FUNDED;
    expect(total, `${book} book: units created or lost`).toBe(putIn);
  }
}

describe('contracts: random price paths and actions keep every invariant', () => {
  it(`holds over ${RUNS} runs (seed ${SEED})`, { timeout: 900_000 }, async () => {
    console.info(`contracts property: seed ${SEED} (set PROPERTY_SEED to replay)`);
    await fc.assert(
      fc.asyncProperty(pathArb, async (steps) => {
        await runScenario(steps);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.info(`contracts property counters: ${JSON.stringify(counters, null, 1)}`);
    for (const flow of [
      'open buy',
      'open sell',
      'open with TP/SL',
      'open at ≥ 50x',
      'limit placed',
      'limit filled',
      'cancel',
      'partial close',
      'full close',
      'closeAll closed some',
      'topup',
      'refused:MARGIN_TOPUP_ABOVE_MAX',
      'close:liquidation',
      'close:take_profit',
      'close:stop_loss',
      'close:user',
      'close:close_all',
      'insurance covered',
    ])
      expect(counters[flow] ?? 0, `flow never happened: ${flow}`).toBeGreaterThan(0);
  });
});
