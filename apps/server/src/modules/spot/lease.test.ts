import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { type ClaimFactory, ClaimLostError, createDb, type Db, withEffectClaim } from '../../db/database.ts';
import { claimsOf } from '../../http/hooks.ts';
import { idempotencyStore } from '../../http/idempotency.ts';
import { Refusal } from '../../http/refusal.ts';
import type { AuditLog } from '../../http/staff.ts';
import { manualClock } from '../../lib/clock.ts';
import { createLedger } from '../ledger/index.ts';
import type { Market } from '../market/index.ts';
import { enable, halt, setKillSwitch, update } from './admin.ts';
import { cancelFor } from './cancel.ts';
import { buildOrder, placeFor } from './intake.ts';
import { encode } from './lease.ts';
import { createSpotState, loadMarkets, type SpotState } from './markets.ts';
import type { OrderState } from './order.ts';
import { appendJournal, insertMarketIfAbsent, settledSeqOf } from './repo.ts';

/**
 * SPOT_LEASES (`lease.ts`) on one database, two "processes" (two spot states with their own lease
 * managers and runners) driven round by round (`start({ rounds: false })`, `round()`): acquire,
 * renew, expiry judged by PostgreSQL's now(), the fence refusing a former owner's transaction, a
 * takeover waiting for a batch in flight and recovering what it journaled. Both app clocks are
 * manual and never move: nothing here reads them.
 */
const SYMBOL = 'BTC/USDT';
const TTL = 1_000;
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `bourse-lease-test-${process.pid}:`;

let database: { url: string; drop(): Promise<void> };
let db: Db;
let destroy: () => Promise<void>;

function processState(name: string, more: { market?: Market; claims?: ClaimFactory } = {}): SpotState {
  const clock = manualClock(new Date('2026-11-21T04:00:00Z'));
  const log = testLogger();
  return createSpotState({
    db,
    clock,
    log,
    ledger: createLedger({ db, clock, log }),
    market: more.market ?? ({} as Market),
    audit: { record: async () => ({ id: 'aud_test', hash: 'h' }) } satisfies AuditLog,
    leases: {
      processId: name,
      ttlMs: TTL,
      redisUrl: REDIS,
      redisPrefix: PREFIX,
      secret: 'lease-test-secret',
    },
    ...(more.claims ? { claims: more.claims } : {}),
  });
}

async function lease(book: 'real' | 'demo') {
  return db
    .selectFrom('spot_book_lease')
    .selectAll()
    .where('symbol', '=', SYMBOL)
    .where('book', '=', book)
    .executeTakeFirstOrThrow();
}

const moved = (e: unknown) => e instanceof Refusal && e.reason === 'SPOT_BOOK_MOVED';

beforeAll(async () => {
  database = await createTestDatabase();
  const handle = createDb(database.url, { max: 8 });
  db = handle.db;
  destroy = () => handle.db.destroy();
  const now = new Date();
  await insertMarketIfAbsent(db, {
    symbol: SYMBOL,
    base: 'BTC',
    quote: 'USDT',
    price_tick: '0.01',
    lot_size: '0.00001',
    min_quantity: '0.00001',
    min_notional: '5',
    max_notional: '1000000',
    maker_fee_rate: '0.001',
    taker_fee_rate: '0.002',
    price_band_bps: 500,
    status: 'enabled',
    halt_reason: null,
    created_at: now,
    updated_at: now,
  });
});
afterAll(async () => {
  await destroy?.();
  await database?.drop();
});

describe('spot book leases', () => {
  it('acquire, renew, expiry by the database, the fence, and a takeover that waits and recovers', async () => {
    const a = processState('proc-a');
    const b = processState('proc-b');
    await loadMarkets(a);
    await loadMarkets(b);
    const A = a.bookLeases!;
    const B = b.bookLeases!;
    const runnerA = (book: 'real' | 'demo') => a.markets.get(SYMBOL)!.runners[book];
    const runnerB = (book: 'real' | 'demo') => b.markets.get(SYMBOL)!.runners[book];
    try {
      // 1. acquire: A starts first and takes both books (recovering them: each journal opens with its config row).
      await A.start({ rounds: false });
      for (const book of ['real', 'demo'] as const) {
        expect(A.owns(SYMBOL, book)).toBe(true);
        expect(await lease(book)).toMatchObject({ owner: 'proc-a', epoch: '1' });
        expect(runnerA(book).engineSeq).toBe(1);
      }
      // B starts second: a follower of both (the books as settled), journaling nothing itself: a
      // cancel sent to B goes to A and comes back with A's answer (here: no such open order).
      await B.start({ rounds: false });
      for (const book of ['real', 'demo'] as const) {
        expect(B.owns(SYMBOL, book)).toBe(false);
        expect(runnerB(book).engineSeq).toBe(1);
        await expect(
          runnerB(book).cancel('ord_x', 'cus_x', 'user'),
          'answered by the owner',
        ).rejects.toSatisfy((e) => e instanceof Refusal && e.reason === 'ORDER_NOT_OPEN');
        // A call that reached B from elsewhere is never sent on (one hop): refused at once.
        await expect(
          runnerB(book).cancel('ord_x', 'cus_x', 'user', { forwarded: true }),
          'a forwarded call is not sent on',
        ).rejects.toSatisfy(moved);
      }

      // 2. renew: A's round moves expires_at on (the database's now()); B's round takes nothing live.
      const before = (await lease('real')).expires_at.getTime();
      await A.round();
      expect((await lease('real')).expires_at.getTime()).toBeGreaterThan(before);
      await B.round();
      expect(await lease('real')).toMatchObject({ owner: 'proc-a', epoch: '1' });

      // 3. expiry is the database's verdict: the demo lease ends by PostgreSQL's now() (A's clock
      // never moved and is never asked); B's next round takes it with a new epoch and recovers it.
      await sql`update spot_book_lease set expires_at = now() - interval '1 millisecond' where book = 'demo'`.execute(
        db,
      );
      await B.round();
      expect(await lease('demo')).toMatchObject({ owner: 'proc-b', epoch: '2' });
      expect(B.owns(SYMBOL, 'demo')).toBe(true);

      // 4. the fence: A still believes it owns demo; its next write (a snapshot) is refused, nothing
      // written, and A stops owning the book.
      expect(A.owns(SYMBOL, 'demo')).toBe(true);
      await expect(runnerA('demo').snapshotNow()).rejects.toSatisfy(moved);
      expect(A.owns(SYMBOL, 'demo')).toBe(false);
      const snapshots = await db.selectFrom('spot_snapshot').selectAll().execute();
      expect(snapshots).toEqual([]);
      await expect(runnerA('demo').cancel('ord_x', 'cus_x', 'user')).rejects.toSatisfy(moved);

      // 5. a takeover waits for a batch in flight: A's transaction passes the fence (its row held
      // `for key share`) and journals a command; meanwhile the lease expires and B tries to take it.
      // B's take waits on the row until A commits, then recovers the book with A's command in it
      // (journaled, not settled: B settles it, exactly once, by the cursor).
      await A.round();
      const fence = A.hooks.fenceFor(SYMBOL, 'real');
      const events: string[] = [];
      let release: () => void = () => {};
      const hold = new Promise<void>((r) => {
        release = r;
      });
      let fenced: () => void = () => {};
      const passed = new Promise<void>((r) => {
        fenced = r;
      });
      const inFlight = db.transaction().execute(async (tx) => {
        await fence(tx);
        fenced();
        await hold;
        await appendJournal(tx, [
          {
            symbol: SYMBOL,
            book: 'real',
            seq: '2',
            command: JSON.stringify({ type: 'config', seq: 2, timestampMs: 0, bandBps: 500, minQtyLots: 1 }),
            created_at: new Date(0),
          },
        ]);
        events.push('A committed');
      });
      await passed;
      // Wait until the database itself says the lease is over (no clock of ours decides).
      for (;;) {
        const r = await sql<{
          over: boolean;
        }>`select expires_at <= now() as over from spot_book_lease where book = 'real'`.execute(db);
        if (r.rows[0]?.over) break;
        await new Promise((res) => setTimeout(res, 50));
      }
      const taking = B.round().then(() => events.push('B took'));
      // B's take is blocked on the lease row (a lock wait the database reports), not finished.
      for (;;) {
        const w = await sql<{
          n: string;
        }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(
          db,
        );
        if (Number(w.rows[0]?.n) > 0) break;
        await new Promise((res) => setTimeout(res, 20));
      }
      expect(B.owns(SYMBOL, 'real')).toBe(false);
      release();
      await inFlight;
      await taking;
      expect(events).toEqual(['A committed', 'B took']);
      expect(await lease('real')).toMatchObject({ owner: 'proc-b', epoch: '2' });
      expect(B.owns(SYMBOL, 'real')).toBe(true);
      expect(runnerB('real').engineSeq).toBe(2);
      expect(await settledSeqOf(db, SYMBOL, 'real')).toBe(2);
      // 6. a renewal never waits for the owner's own batch in flight (`for key share` lets it through).
      const fenceB = B.hooks.fenceFor(SYMBOL, 'real');
      const beforeRenewal = (await lease('real')).expires_at.getTime();
      await db.transaction().execute(async (tx) => {
        await fenceB(tx);
        await B.round();
      });
      expect((await lease('real')).expires_at.getTime()).toBeGreaterThan(beforeRenewal);
      expect(B.owns(SYMBOL, 'real')).toBe(true);
      // A learns at its next write or round.
      await A.round();
      expect(A.owns(SYMBOL, 'real')).toBe(false);
      await expect(runnerA('real').snapshotNow()).rejects.toSatisfy(moved);
    } finally {
      await A.close();
      await B.close();
    }
    // A clean close gives the books up at once (expired by the database's clock).
    const r = await sql<{
      live: boolean;
    }>`select bool_or(expires_at > now()) as live from spot_book_lease`.execute(db);
    expect(r.rows[0]?.live).toBe(false);
  }, 60_000);

  it('the back office of a process that owns no book reaches the owner: halt, band, kill switch', async () => {
    const c = processState('proc-c');
    const d = processState('proc-d');
    await loadMarkets(c);
    await loadMarkets(d);
    const C = c.bookLeases!;
    const D = d.bookLeases!;
    const staff = { staffId: 'stf_test', sessionId: 'ses_test', roles: ['administrator'] } as const;
    const gateOfC = () => c.hooks.gate(SYMBOL)?.reason ?? null;
    /** The owner hears the change over Redis (no round driven here); a generous bound, never reached when well. */
    const soon = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
      return check();
    };
    try {
      await C.start({ rounds: false });
      await D.start({ rounds: false });
      expect(C.owns(SYMBOL, 'real') && C.owns(SYMBOL, 'demo')).toBe(true);
      expect(D.owns(SYMBOL, 'real') || D.owns(SYMBOL, 'demo')).toBe(false);
      expect(gateOfC()).toBe(null);

      // A halt saved on D stops C's matching.
      await halt(d, staff, SYMBOL, 'maintenance');
      expect(await soon(() => gateOfC() === 'SPOT_MARKET_HALTED')).toBe(true);
      await enable(d, staff, SYMBOL, 'done');
      expect(await soon(() => gateOfC() === null)).toBe(true);

      // A band change saved on D (which cannot journal it: it owns no book) is journaled by C.
      const seqBefore = c.markets.get(SYMBOL)!.runners.real.engineSeq;
      await update(d, staff, SYMBOL, { price_band_bps: '300', reason: 'calmer' });
      const runnerC = c.markets.get(SYMBOL)!.runners;
      expect(
        await soon(() => runnerC.real.market.bandBps === 300 && runnerC.demo.market.bandBps === 300),
      ).toBe(true);
      expect(runnerC.real.engineSeq).toBe(seqBefore + 1);
      const last = await db
        .selectFrom('spot_journal')
        .select('command')
        .where('symbol', '=', SYMBOL)
        .where('book', '=', 'real')
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      expect(last.command).toMatchObject({ type: 'config', bandBps: 300 });
      // D's own runner is a follower: its engine is not reconfigured by D.
      expect(d.markets.get(SYMBOL)!.runners.real.engineSeq).toBeLessThanOrEqual(seqBefore);

      // The kill switch engaged on D refuses on C; released, C takes orders again.
      await setKillSwitch(d, staff, true, 'incident');
      expect(await soon(() => gateOfC() === 'TRADING_HALTED')).toBe(true);
      await setKillSwitch(d, staff, false, 'resolved');
      expect(await soon(() => gateOfC() === null)).toBe(true);

      // Without Redis the lease round reads the same: a halt written straight to the row is seen at C's round.
      await db
        .updateTable('spot_market')
        .set({ status: 'halted', halt_reason: 'row', updated_at: new Date() })
        .execute();
      await C.round();
      expect(gateOfC()).toBe('SPOT_MARKET_HALTED');
    } finally {
      await C.close();
      await D.close();
    }
  }, 60_000);
  it('an order and its cancel sent to a process that does not own the book are run by the owner, the claim with them', async () => {
    // The price the order is checked against (the band): a market with one fixed mark.
    const market = { priceForTrading: () => ({ mark: '90000' }) } as unknown as Market;
    // The owner records a forwarded request's claim with its own store, as the app wires it.
    const store = idempotencyStore(db);
    const at = new Date('2026-11-21T04:00:00Z');
    const claims = claimsOf(store, manualClock(at));
    // The test before left the market halted by a row write.
    await db
      .updateTable('spot_market')
      .set({ status: 'enabled', halt_reason: null, updated_at: at })
      .execute();
    const e = processState('proc-e', { market, claims });
    const f = processState('proc-f', { market, claims });
    await loadMarkets(e);
    await loadMarkets(f);
    const E = e.bookLeases!;
    const F = f.bookLeases!;
    const ledger = createLedger({ db, clock: manualClock(at), log: testLogger() });
    const customer = 'cus_forwarded';
    await ledger.credit(db, {
      book: 'real',
      customerId: customer,
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: 10n ** 12n,
      from: 'deposits_clearing',
      reference: { type: 'test', id: 'forward' },
      idempotencyKey: 'lease-forward-usdt',
    });
    const usdt = async () =>
      (await ledger.balances(db, { customerId: customer, accountType: 'spot' })).find(
        (b) => b.accountType === 'spot' && b.currency === 'USDT',
      );
    const body = { symbol: SYMBOL, side: 'buy' as const, price: '90000', quantity: '0.001' };
    try {
      await E.start({ rounds: false });
      await F.start({ rounds: false });
      expect(E.owns(SYMBOL, 'real')).toBe(true);
      expect(F.owns(SYMBOL, 'real')).toBe(false);

      // 1. placed on F, under a request's claim: journaled by E, the claim recorded in E's batch.
      const wire = {
        key: { hash: `fwd-${process.pid}`, route: 'POST /test', requestHash: 'r1' },
        claimId: 'c1',
      };
      const order = await withEffectClaim({ commit: async () => false, wire }, () =>
        placeFor(f, customer, 'real', body),
      );
      expect(order).toMatchObject({ customerId: customer, status: 'unfilled', qtyLots: 100n });
      expect(order.createdAt).toBeInstanceOf(Date);
      expect(e.markets.get(SYMBOL)!.runners.real.open.has(order.id)).toBe(true);
      const row = await db
        .selectFrom('spot_order')
        .selectAll()
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('unfilled');
      const claim = await db
        .selectFrom('http_idempotency')
        .select(['state', 'claim_id'])
        .where('key_hash', '=', wire.key.hash)
        .executeTakeFirstOrThrow();
      expect(claim).toEqual({ state: 'applied', claim_id: 'c1' });
      // What the order holds (90 USDT and the 0.2 % taker fee) is held on the ledger.
      expect(order.frozen).toBeGreaterThan(0n);
      expect((await usdt())?.frozenUnits).toBe(order.frozen);

      // 2. the owner's refusal comes back as the owner gave it: a sell of BTC the customer does not have.
      await expect(placeFor(f, customer, 'real', { ...body, side: 'sell' })).rejects.toSatisfy(
        (err) => err instanceof Refusal && err.reason === 'INSUFFICIENT_BALANCE',
      );

      // 2b. a call put on E's inbox by a client of Redis that is not a process of this platform (no
      // valid signature) is dropped: not run, not answered. A good call sent after it is answered,
      // so E has read the forged one by then.
      const forged = buildOrder(e, customer, 'real', body);
      const redis = new Redis(REDIS);
      try {
        const call = {
          v: 1,
          kind: 'call',
          id: 'forged/1',
          from: 'proc-x',
          symbol: SYMBOL,
          book: 'real',
          op: 'place',
          args: encode(forged),
          claim: null,
          mac: '0'.repeat(64),
        };
        expect(await redis.publish(`${PREFIX}spot:call:proc-e`, JSON.stringify(call))).toBe(1);
      } finally {
        redis.disconnect();
      }
      const after = await placeFor(f, customer, 'real', body);
      expect(e.markets.get(SYMBOL)!.runners.real.open.has(forged.order.id)).toBe(false);
      expect(
        await db.selectFrom('spot_order').select('id').where('id', '=', forged.order.id).execute(),
      ).toEqual([]);
      await cancelFor(f, customer, { order_id: after.id });

      // 3. cancelled on F: E cancels it, the funds released.
      const cancelled = await cancelFor(f, customer, { order_id: order.id });
      expect(cancelled).toMatchObject({ id: order.id, status: 'cancelled' });
      expect((await usdt())?.frozenUnits).toBe(0n);

      // 4. two requests on one key in one of the owner's batches (a sender that gave up waiting
      // while its order was queued, and the retry that followed it): one order, the others lose
      // their claims as twins do. Queued in one turn behind an order that keeps the book busy, so
      // all three go in the next batch (one statement cannot write a key twice).
      const key = { hash: `fwd-twin-${process.pid}`, route: 'POST /test', requestHash: 'r2' };
      const runnerE = e.markets.get(SYMBOL)!.runners.real;
      const busy = runnerE.place(buildOrder(e, customer, 'real', body));
      const twins = await Promise.allSettled(
        ['t1', 't2', 't3'].map((claimId) =>
          withEffectClaim(claims({ key, claimId }), () =>
            runnerE.place(buildOrder(e, customer, 'real', body)),
          ),
        ),
      );
      await cancelFor(f, customer, { order_id: (await busy).id });
      expect(twins.filter((t) => t.status === 'fulfilled')).toHaveLength(1);
      for (const t of twins) if (t.status === 'rejected') expect(t.reason).toBeInstanceOf(ClaimLostError);
      const won = twins.findIndex((t) => t.status === 'fulfilled');
      const placed = (twins[won] as PromiseFulfilledResult<OrderState>).value;
      const recorded = await db
        .selectFrom('http_idempotency')
        .select('claim_id')
        .where('key_hash', '=', key.hash)
        .execute();
      expect(recorded).toEqual([{ claim_id: ['t1', 't2', 't3'][won] }]);
      await cancelFor(f, customer, { order_id: placed.id });

      // 5. the owner gone (its inbox unheard): refused SPOT_BOOK_MOVED at once, nothing journaled;
      // F's next round takes the book and the order runs there.
      const seqBefore = await settledSeqOf(db, SYMBOL, 'real');
      await E.close();
      await expect(placeFor(f, customer, 'real', body)).rejects.toSatisfy(moved);
      expect(await settledSeqOf(db, SYMBOL, 'real')).toBe(seqBefore);
      await F.round();
      expect(F.owns(SYMBOL, 'real')).toBe(true);
      expect(await placeFor(f, customer, 'real', body)).toMatchObject({ status: 'unfilled' });
    } finally {
      await E.close();
      await F.close();
      await store.close();
    }
  }, 60_000);
});
