import { sql } from 'kysely';
import { manualClock } from '../apps/server/src/lib/clock.ts';
import { positionOf } from '../apps/server/src/modules/contracts/core.ts';
import { evaluateEach, InstrumentBooks } from '../apps/server/src/modules/contracts/evaluate.ts';
import { ONE } from '../apps/server/src/modules/contracts/math.ts';
import type { BenchResult } from './run.ts';
import { benchDemoCustomer, openBenchApp, openBenchDatabase } from './support.ts';

/**
 * Contracts, server side:
 * (1) orders/s: market opens through `POST /api/web/openContract` (app.inject: routing, auth,
 *     rtoken, validation, one transaction with the ledger entry) from 16 concurrent demo customers,
 *     each opening on 4 crypto perpetuals (the per-instrument open limit is 50).
 * (2) the risk engine: 100,000 open positions on BTC/USDT-PERP (inserted in bulk by SQL in this
 *     setup), then one full engine round (`engine.step()`: lock, cursor, tick read, both consumers,
 *     one transaction) over one recorded tick that triggers nothing — the "re-evaluate" figure —
 *     and one over a tick that liquidates 1 % of them (1,000 liquidations, each one ledger entry:
 *     those positions' margins are really frozen in the ledger); plus a catch-up round of 100 ticks,
 *     and the evaluation alone in memory (PositionBook books vs the one-by-one reference).
 */
const POSITIONS = Number(process.env.BENCH_CONTRACT_POSITIONS ?? 100_000);
const LIQUIDATING = Math.floor(POSITIONS / 100);
const CLIENTS = 16;
const PER_CLIENT = Number(process.env.BENCH_CONTRACT_ORDERS_PER_CLIENT ?? 120);
const SYMBOLS: ReadonlyArray<[string, string]> = [
  ['ETH/USDT-PERP', '0.01'],
  ['SOL/USDT-PERP', '1'],
  ['XRP/USDT-PERP', '100'],
  ['BNB/USDT-PERP', '0.1'],
];
const PERP = 'BTC/USDT-PERP';
const USDT = 10n ** 8n;

export async function run(): Promise<BenchResult[]> {
  const database = await openBenchDatabase('contracts', { portBase: 43000, poolMax: 20 });
  const clock = manualClock(new Date());
  const { app, ledger } = await openBenchApp(database, clock);
  const db = database.db;
  try {
    await app.market.step();
    await app.market.flushRecorder();
    const orders = await ordersPerSecond();
    await app.contracts.engine.step(); // catch the cursor up with the sim ticks
    const rounds = await engineRounds();
    const verified = await ledger.verify();
    if (!verified.ok) throw new Error('ledger verification failed after the bench');
    return [orders, ...rounds];
  } finally {
    await app.close();
    await database.close();
  }

  async function ordersPerSecond(): Promise<BenchResult> {
    const clients: Array<{ token: string }> = [];
    for (let c = 0; c < CLIENTS; c++) {
      const customer = await benchDemoCustomer(app, db, `bcon${c}xx`);
      await ledger.transfer(db, {
        book: 'demo',
        customerId: customer.id,
        currency: 'USDT',
        fromType: 'spot',
        toType: 'contract',
        amountUnits: 90_000n * USDT,
        reference: { type: 'bench', id: customer.id },
        idempotencyKey: `bench-contracts-${customer.id}`,
      });
      clients.push({ token: customer.token });
    }
    let n = 0;
    let refused = 0;
    const t0 = performance.now();
    await Promise.all(
      clients.map(async (client, c) => {
        for (let k = 0; k < PER_CLIENT; k++) {
          const [symbol, lots] = SYMBOLS[k % SYMBOLS.length] as [string, string];
          const response = await app.inject({
            method: 'POST',
            url: '/api/web/openContract',
            headers: { token: client.token, 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({
              rtoken: `bo${c}x${k}xx`,
              symbol,
              side: k % 2 === 0 ? 'buy' : 'sell',
              lots,
              leverage: '20',
            }).toString(),
          });
          const body = response.json();
          if (body.code === 1) n += 1;
          else refused += 1;
          if (response.statusCode >= 500) throw new Error(`openContract: ${response.body}`);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return {
      name: `openContract, ${CLIENTS} concurrent clients`,
      figures: { orders_per_s: Math.round(n / seconds), opened: n, refused, seconds: seconds.toFixed(2) },
    };
  }

  /** One recorded BTC/USDT-PERP tick (bid = ask = mark), after every tick already recorded. */
  async function recordTick(price: string): Promise<void> {
    const i = app.market.instrument(PERP);
    await sql`
      insert into market_tick (seq, instrument_id, at, price, bid, ask, mark, size, source)
      select coalesce(max(seq), 0) + 1, ${i.id}, ${clock.now()}, ${price}, ${price}, ${price}, ${price}, 0, 'bench'
      from market_tick`.execute(db);
  }

  /** The evaluation alone (no database): PositionBook books vs the one-by-one reference. */
  async function inMemory(): Promise<BenchResult> {
    const i = app.market.instrument(PERP);
    const rows = await db
      .selectFrom('contracts_position')
      .selectAll()
      .where('symbol', '=', PERP)
      .where('status', '=', 'open')
      .orderBy('id')
      .execute();
    const t0 = performance.now();
    const positions = rows.map((r) => positionOf(r, i));
    const parseMs = performance.now() - t0;
    const tick = { seq: 10n ** 12n, bidUnits: 942_000n, askUnits: 942_000n, markUnits: 942_000n };
    const t1 = performance.now();
    const books = new InstrumentBooks(i, 0n, positions, { bookAfterTicks: 0 });
    const first = books.evaluate(tick, ONE);
    const buildMs = performance.now() - t1;
    const t2 = performance.now();
    const again = books.evaluate(
      { seq: tick.seq + 1n, bidUnits: 950_000n, askUnits: 950_000n, markUnits: 950_000n },
      ONE,
    );
    const nextMs = performance.now() - t2;
    const t3 = performance.now();
    const reference = evaluateEach({ i, positions, tick, spreadUnits: 0n, toUsdt: ONE });
    const referenceMs = performance.now() - t3;
    if (first.length !== reference.length || first.length !== LIQUIDATING || again.length !== 0)
      throw new Error(`books ${first.length}/${again.length} vs reference ${reference.length}`);
    return {
      name: `evaluation in memory, ${positions.length} positions`,
      figures: {
        parse_ms: Math.round(parseMs),
        book_build_and_first_tick_ms: Math.round(buildMs),
        book_quiet_tick_ms: nextMs.toFixed(2),
        one_by_one_tick_ms: Math.round(referenceMs),
        triggered: reference.length,
      },
    };
  }

  async function engineRounds(): Promise<BenchResult[]> {
    const i = app.market.instrument(PERP);
    await db
      .updateTable('contracts_setting')
      .set({ spread: '0', fee_per_lot: '0', liquidation_level: '0.8' })
      .where('symbol', '=', PERP)
      .execute();
    // 1 % at 100x (0.01 lot at 95000: margin 9.5, liquidated by a 0.84 % fall), the rest at 10x.
    // The liquidating ones belong to 100 real customers whose margin is frozen in the ledger.
    const owners = 100;
    for (let c = 0; c < owners; c++) {
      const customerId = `cus_bench_liq_${c}`;
      const per = BigInt(Math.ceil(LIQUIDATING / owners));
      const held = per * 950_000_000n; // 9.5 USDT each
      await ledger.credit(db, {
        book: 'real',
        customerId,
        accountType: 'contract',
        currency: 'USDT',
        amountUnits: held,
        from: 'deposits_clearing',
        reason: 'deposit.bench',
        reference: { type: 'bench', id: customerId },
        idempotencyKey: `bench-liq-credit-${c}`,
      });
      await ledger.freeze(db, {
        book: 'real',
        customerId,
        accountType: 'contract',
        currency: 'USDT',
        amountUnits: held,
        reason: 'contract.margin',
        reference: { type: 'bench', id: customerId },
        idempotencyKey: `bench-liq-freeze-${c}`,
      });
    }
    const now = clock.now();
    const t0 = performance.now();
    await sql`
      insert into contracts_order (id, customer_id, book, symbol, client_oid, side, type, price, lots_units,
        leverage, tp_price, sl_price, margin_units, fee_units, fee_per_lot, liquidation_level, status,
        cancel_reason, position_id, created_at, updated_at)
      select 'cor_bench_' || n, case when n <= ${LIQUIDATING} then 'cus_bench_liq_' || ((n - 1) % ${owners})
                                     else 'cus_bench_' || (n % 5000) end,
        'real', ${PERP}, null, 'buy', 'market', '95000.0', 1000000,
        case when n <= ${LIQUIDATING} then 100 else 10 end, null, null,
        case when n <= ${LIQUIDATING} then 950000000 else 9500000000 end, 0, '0', '0.8', 'filled', null,
        'cpo_bench_' || n, ${now}, ${now}
      from generate_series(1, ${POSITIONS}) as n`.execute(db);
    await sql`
      insert into contracts_position (id, customer_id, book, symbol, instrument_id, order_id, side, leverage,
        lots_units, opened_lots_units, open_price, open_price_source, open_price_at, open_tick_seq, open_rate,
        margin_units, fee_units, funding_units, realized_pnl_units, tp_price, sl_price, fee_per_lot,
        liquidation_level, status, close_reason, close_price, close_price_source, close_price_at, opened_at,
        closed_at, updated_at)
      select o.position_id, o.customer_id, 'real', o.symbol, ${i.id}, o.id, 'buy', o.leverage, 1000000, 1000000,
        '95000.0', 'bench', ${now}, 0, '1', o.margin_units, 0, 0, 0, null, null, '0', '0.8', 'open', null,
        null, null, null, ${now}, null, ${now}
      from contracts_order o where o.id like 'cor_bench_%'`.execute(db);
    await sql`analyze contracts_position`.execute(db);
    const insertSeconds = (performance.now() - t0) / 1000;
    const open = async () =>
      Number(
        (
          await db
            .selectFrom('contracts_position')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('symbol', '=', PERP)
            .where('status', '=', 'open')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await open();
    const memory = await inMemory();
    clock.advance(1_000);
    await recordTick('95000.0');
    const r1 = performance.now();
    const quiet = await app.contracts.engine.step();
    const quietMs = performance.now() - r1;
    const afterQuiet = await open();
    // a catch-up round: 100 recorded ticks at once (the books are built after the third)
    for (let k = 0; k < 100; k++) {
      clock.advance(10);
      await recordTick(k % 2 === 0 ? '95010.0' : '94990.0');
    }
    const r3 = performance.now();
    const many = await app.contracts.engine.step();
    const manyMs = performance.now() - r3;
    if (many.ticks !== 100 || (await open()) !== before) throw new Error('the 100-tick round misbehaved');
    clock.advance(1_000);
    await recordTick('94200.0');
    const r2 = performance.now();
    const shock = await app.contracts.engine.step();
    const shockMs = performance.now() - r2;
    const afterShock = await open();
    if (quiet.ticks !== 1 || shock.ticks !== 1) throw new Error('the rounds did not read one tick each');
    if (afterQuiet !== before) throw new Error(`the quiet round closed ${before - afterQuiet} positions`);
    if (before - afterShock !== LIQUIDATING)
      throw new Error(`the shock liquidated ${before - afterShock}, expected ${LIQUIDATING}`);
    return [
      memory,
      {
        name: `engine round, ${before} open positions, 1 tick, nothing triggered`,
        figures: {
          round_ms: Math.round(quietMs),
          positions_per_s: Math.round(before / (quietMs / 1000)),
          bulk_insert_s: insertSeconds.toFixed(1),
        },
      },
      {
        name: `engine round, ${before} open, 100 ticks, nothing triggered`,
        figures: { round_ms: Math.round(manyMs), ms_per_tick: (manyMs / 100).toFixed(1) },
      },
      {
        name: `engine round, ${before} open, 1 tick, ${LIQUIDATING} liquidated`,
        figures: {
          round_ms: Math.round(shockMs),
          liquidations_per_s: Math.round(LIQUIDATING / (shockMs / 1000)),
        },
      },
    ];
  }
}
