import { customerLeafId, type PathStep, verify, verifyDetailed } from '@bourse/proof';
import type { ProofLeaf } from '@bourse/protocol';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerByEmail, startTestApp, type TestApp } from '../../../test/harness.ts';
import { testLogger } from '../../../test/logwatch.ts';
import { createLedger } from '../ledger/index.ts';
import { customerId, key, type LedgerFixture, openLedgerFixture, ref, usdt } from '../ledger/testing.ts';
import { createProof, type Proof, scheduleProofs } from './service.ts';

/** What the browser does with a served leaf: rebuild the leaf and path and check them against the root. */
function verifyServed(leaf: ProofLeaf): boolean {
  const path: PathStep[] = leaf.path.map((s) => ({ side: s.side, hash: s.hash, sum: BigInt(s.sum_units) }));
  return (
    customerLeafId(leaf.salt, leaf.customer_ref) === leaf.leaf_id &&
    verify(
      { id: leaf.leaf_id, nonce: leaf.nonce, currency: leaf.currency, balance: BigInt(leaf.balance_units) },
      path,
      { hash: leaf.root.hash, sum: BigInt(leaf.root.sum_units) },
      { leafCount: leaf.leaf_count },
    )
  );
}

const btc = (sats: bigint) => sats;

describe('publishing snapshots', () => {
  let f: LedgerFixture;
  let proof: Proof;
  const lines: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    f = await openLedgerFixture({ poolMax: 20 });
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    proof = createProof({ db: f.db, clock: f.clock, log, ledger: f.ledger });
  });
  afterAll(async () => {
    await f.close();
  });

  async function credit(
    customer: string,
    currency: string,
    amountUnits: bigint,
    accountType: 'spot' | 'contract' | 'earn' = 'spot',
  ) {
    await f.ledger.credit(f.db, {
      book: 'real',
      customerId: customer,
      accountType,
      currency,
      amountUnits,
      from: 'deposits_clearing',
      reference: ref(),
      idempotencyKey: key('credit'),
    });
  }

  it('builds one tree per currency from available + frozen over every account type; every leaf verifies', async () => {
    const [a, b, c] = [customerId(), customerId(), customerId()];
    await credit(a, 'USDT', usdt(100));
    await credit(a, 'USDT', usdt(50), 'contract');
    await f.ledger.freeze(f.db, {
      book: 'real',
      customerId: a,
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: usdt(30),
      reference: ref(),
      idempotencyKey: key('freeze'),
    });
    await credit(b, 'USDT', usdt(7));
    await credit(c, 'BTC', btc(12_345n));
    await credit(a, 'BTC', btc(1n), 'earn');

    const result = await proof.publish();
    expect(result.mismatches).toEqual([]);
    const byCurrency = Object.fromEntries(result.snapshots.map((s) => [s.currency, s]));
    expect(byCurrency.USDT?.totalUnits).toBe(usdt(157));
    expect(byCurrency.USDT?.leafCount).toBe(2);
    expect(byCurrency.BTC?.totalUnits).toBe(12_346n);
    expect(byCurrency.BTC?.leafCount).toBe(2);
    for (const s of result.snapshots) expect(s.ledgerTotalUnits).toBe(s.totalUnits);

    const roots = await proof.latestRoots();
    expect(roots.map((r) => [r.currency, r.total, r.ledger_total, r.leaf_count])).toEqual([
      ['BTC', '0.00012346', '0.00012346', 2],
      ['USDT', '157', '157', 2],
    ]);

    const leavesA = await proof.customerLeaves(a);
    expect(leavesA.map((l) => [l.currency, l.balance_units])).toEqual([
      ['BTC', '1'],
      ['USDT', usdt(150).toString()],
    ]);
    for (const customer of [a, b, c]) {
      for (const leaf of await proof.customerLeaves(customer)) expect(verifyServed(leaf)).toBe(true);
    }
    // The stored leaves and paths carry no customer id or email: only salted hashes and nonces.
    const { rows } = await sql<{ text: string }>`
      select string_agg(leaf_id || nonce, ',') as text from proof_leaf`.execute(f.db);
    expect(rows[0]?.text).not.toContain('usr_');
  });

  it('compares each tree total with the ledger’s own figure from the same read, and they are equal', async () => {
    const result = await proof.publish();
    const { rows } = await sql<{ currency: string; customers: string; platform: string }>`
      select currency,
             coalesce(sum(available + frozen) filter (where customer_id is not null), 0)::text as customers,
             coalesce(sum(available + frozen) filter (where platform_code is not null), 0)::text as platform
        from ledger_account where book = 'real' group by currency`.execute(f.db);
    for (const s of result.snapshots) {
      const row = rows.find((r) => r.currency === s.currency);
      expect(s.totalUnits).toBe(BigInt(row?.customers ?? 'x'));
      expect(s.totalUnits).toBe(-BigInt(row?.platform ?? 'x'));
    }
    const stored = await f.db.selectFrom('proof_snapshot').select(['total', 'ledger_total']).execute();
    for (const s of stored) expect(s.total).toBe(s.ledger_total);
  });

  it('leaves the demo book out entirely', async () => {
    const before = Object.fromEntries(
      (await proof.publish()).snapshots.map((s) => [s.currency, s.totalUnits]),
    );
    const demo = customerId();
    await f.ledger.grantDemoFunds(f.db, { customerId: demo, idempotencyKey: key('demo') });
    const after = await proof.publish();
    expect(Object.fromEntries(after.snapshots.map((s) => [s.currency, s.totalUnits]))).toEqual(before);
    expect(await proof.customerLeaves(demo)).toEqual([]);
    const count = await f.db
      .selectFrom('proof_leaf')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('customer_id', '=', demo)
      .executeTakeFirstOrThrow();
    expect(count.n).toBe('0');
  });

  it('a snapshot taken while transfers race still balances and every leaf verifies', async () => {
    const people = Array.from({ length: 8 }, () => customerId());
    for (const p of people) await credit(p, 'USDT', usdt(1_000));
    const base = (await proof.publish()).snapshots.find((s) => s.currency === 'USDT')?.totalUnits ?? -1n;
    let running = true;
    let moved = 0;
    let deposited = 0n;
    const racers = Array.from({ length: 6 }, async (_, r) => {
      let n = 0;
      while (running) {
        n += 1;
        const from = people[(r + n) % people.length] as string;
        const to = people[(r + n * 3 + 1) % people.length] as string;
        if (from === to) continue;
        if (n % 5 === 0) {
          // a deposit: changes the total, so the tree must take it whole or not at all
          const amount = usdt(1);
          await credit(to, 'USDT', amount, 'contract');
          deposited += amount;
        } else {
          await f.ledger
            .post(f.db, {
              reason: 'test_transfer',
              reference: ref(),
              idempotencyKey: key('race'),
              postings: [
                {
                  account: { book: 'real', customerId: from, accountType: 'spot' },
                  currency: 'USDT',
                  amountUnits: -3n,
                },
                {
                  account: { book: 'real', customerId: to, accountType: 'spot' },
                  currency: 'USDT',
                  amountUnits: 3n,
                },
              ],
            })
            .catch((error: unknown) => {
              if ((error as { reason?: string }).reason !== 'INSUFFICIENT_BALANCE') throw error;
            });
          moved += 1;
        }
      }
    });
    const totals: bigint[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await proof.publish();
      expect(result.mismatches).toEqual([]);
      const usdtSnap = result.snapshots.find((s) => s.currency === 'USDT');
      expect(usdtSnap?.totalUnits).toBe(usdtSnap?.ledgerTotalUnits);
      totals.push(usdtSnap?.totalUnits ?? -1n);
      for (const p of people.slice(0, 3)) {
        for (const leaf of await proof.customerLeaves(p, 'USDT')) expect(verifyServed(leaf)).toBe(true);
      }
    }
    running = false;
    await Promise.all(racers);
    expect(moved).toBeGreaterThan(10);
    // Transfers between customers never change the total; deposits only add whole units of 1 USDT.
    for (const t of totals) {
      expect(t >= base && t <= base + deposited).toBe(true);
      expect((t - base) % usdt(1)).toBe(0n);
    }
    const final = (await proof.publish()).snapshots.find((s) => s.currency === 'USDT');
    expect(final?.totalUnits).toBe(base + deposited);
  });

  it('refuses to publish a currency whose total differs from the ledger and raises the alarm', async () => {
    // Simulate a ledger bug: a customer balance changed without an entry (only a test does this).
    const victim = customerId();
    await credit(victim, 'ETH', 10n ** 18n);
    await sql`update ledger_account set available = available + 5 where customer_id = ${victim}`.execute(
      f.db,
    );
    lines.length = 0;
    const result = await proof.publish();
    expect(result.mismatches).toEqual([
      { currency: 'ETH', treeUnits: 10n ** 18n + 5n, ledgerUnits: 10n ** 18n },
    ]);
    expect(result.snapshots.map((s) => s.currency)).not.toContain('ETH');
    expect(
      lines.some(
        (l) => l.level === 50 && l.msg === 'PROOF ALARM: liabilities tree total differs from the ledger',
      ),
    ).toBe(true);
    expect((await proof.latestRoots()).map((r) => r.currency)).not.toContain('ETH');
    await sql`update ledger_account set available = available - 5 where customer_id = ${victim}`.execute(
      f.db,
    );
  });

  it('keeps published proofs append-only', async () => {
    await expect(sql`update proof_snapshot set total = total + 1`.execute(f.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from proof_node`.execute(f.db)).rejects.toThrow(/append-only/);
  });

  it('a tampered served path fails in the verifier', async () => {
    const [leaf] = await proof.customerLeaves(
      (await f.db.selectFrom('proof_leaf').select('customer_id').executeTakeFirstOrThrow()).customer_id,
    );
    if (!leaf) throw new Error('no leaf');
    const path: PathStep[] = leaf.path.map((s) => ({ side: s.side, hash: s.hash, sum: BigInt(s.sum_units) }));
    const own = {
      id: leaf.leaf_id,
      nonce: leaf.nonce,
      currency: leaf.currency,
      balance: BigInt(leaf.balance_units),
    };
    const root = { hash: leaf.root.hash, sum: BigInt(leaf.root.sum_units) };
    expect(verify(own, path, root)).toBe(true);
    expect(verify({ ...own, balance: own.balance + 1n }, path, root)).toBe(false);
    expect(verifyDetailed(own, path, { ...root, sum: root.sum - 1n }).failure).toBe('root_sum_mismatch');
  });
});

describe('the schedule', () => {
  let f: LedgerFixture;
  beforeAll(async () => {
    f = await openLedgerFixture();
  });
  afterAll(async () => {
    await f.close();
  });

  it('publishes once at start when none exists, not when one does, then on every interval', async () => {
    const log = testLogger();
    await f.ledger.credit(f.db, {
      book: 'real',
      customerId: customerId(),
      accountType: 'spot',
      currency: 'USDT',
      amountUnits: usdt(5),
      from: 'deposits_clearing',
      reference: ref(),
      idempotencyKey: key('s'),
    });
    const proof = createProof({ db: f.db, clock: f.clock, log, ledger: f.ledger });
    const rounds = async () =>
      Number(
        (
          await f.db
            .selectFrom('proof_snapshot')
            .select((eb) => eb.fn.count<string>('round_id').distinct().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const first = scheduleProofs({ proof, log, intervalMs: 3_600_000 });
    await first.ready;
    first.stop();
    expect(await rounds()).toBe(1);
    const second = scheduleProofs({ proof, log, intervalMs: 3_600_000 });
    await second.ready;
    second.stop();
    expect(await rounds()).toBe(1);
    const ticking = scheduleProofs({ proof, log, intervalMs: 100 });
    await ticking.ready;
    const deadline = Date.now() + 10_000;
    while ((await rounds()) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    ticking.stop();
    expect(await rounds()).toBeGreaterThanOrEqual(3);
  });
});

describe('the calls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.app.proof.schedule.ready;
  });
  afterAll(async () => {
    await t.close();
  });

  async function customerOf(uid: string): Promise<string> {
    const row = await t.db
      .selectFrom('accounts_customer')
      .select('id')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('serves the roots to anyone and a leaf only to its own customer', async () => {
    const alice = await registerByEmail(t, 'alice.proof@example.com');
    const bob = await registerByEmail(t, 'bob.proof@example.com');
    const carol = await registerByEmail(t, 'carol.proof@example.com');
    const proof = t.app.proof.service;
    const ledger = createLedger({ db: t.db, clock: t.clock, log: testLogger() });
    for (const [who, amount] of [
      [alice, usdt(250)],
      [bob, usdt(40)],
    ] as const) {
      const id = await customerOf(who.uid);
      await ledger.credit(t.db, {
        book: 'real',
        customerId: id,
        accountType: 'spot',
        currency: 'USDT',
        amountUnits: amount,
        from: 'deposits_clearing',
        reference: ref(),
        idempotencyKey: key('route'),
      });
    }
    await proof.publish();

    const roots = await call(t.app, { method: 'GET', call: 'getProofRoots' });
    expect(roots.code).toBe(1);
    expect(roots.data.roots).toHaveLength(1);
    expect(roots.data.roots[0]).toMatchObject({
      currency: 'USDT',
      total: '290',
      total_units: usdt(290).toString(),
      leaf_count: 2,
    });
    expect(roots.data.roots[0].root_hash).toMatch(/^[0-9a-f]{64}$/);

    const mine = await call(t.app, { method: 'GET', call: 'getProofLeaf', fields: { token: alice.token } });
    expect(mine.code).toBe(1);
    expect(mine.data.leaves).toHaveLength(1);
    const leaf = mine.data.leaves[0] as ProofLeaf;
    expect(leaf).toMatchObject({
      currency: 'USDT',
      balance: '250',
      customer_ref: await customerOf(alice.uid),
    });
    expect(leaf.root.hash).toBe(roots.data.roots[0].root_hash);
    expect(verifyServed(leaf)).toBe(true);

    const bobs = await call(t.app, {
      method: 'GET',
      call: 'getProofLeaf',
      fields: { token: bob.token, currency: 'USDT' },
    });
    expect(bobs.data.leaves[0].balance).toBe('40');
    expect(bobs.data.leaves[0].leaf_id).not.toBe(leaf.leaf_id);
    // Alice's path carries Bob's leaf hash and sum as her sibling, never his id, nonce or name.
    expect(JSON.stringify(mine.data)).not.toContain(bobs.data.leaves[0].nonce);
    expect(JSON.stringify(mine.data)).not.toContain(await customerOf(bob.uid));

    const none = await call(t.app, { method: 'GET', call: 'getProofLeaf', fields: { token: carol.token } });
    expect(none).toMatchObject({ code: 1, data: { leaves: [] } });
    const otherCurrency = await call(t.app, {
      method: 'GET',
      call: 'getProofLeaf',
      fields: { token: alice.token, currency: 'BTC' },
    });
    expect(otherCurrency.data.leaves).toEqual([]);
  });

  it('refuses without login and refuses bad input', async () => {
    const anonymous = await call(t.app, { method: 'GET', call: 'getProofLeaf' });
    expect(anonymous.reason).toBe('LOGIN_REQUIRED');
    const someone = await registerByEmail(t, 'dave.proof@example.com');
    const bad = await call(t.app, {
      method: 'GET',
      call: 'getProofLeaf',
      fields: { token: someone.token, currency: 'usdt; drop' },
    });
    expect(bad.status).toBe(400);
    expect(bad.reason).toBeTruthy();
    const unknown = await call(t.app, {
      method: 'GET',
      call: 'getProofLeaf',
      fields: { token: someone.token, customer_id: 'usr_x' },
    });
    expect(unknown.reason).toBe('UNKNOWN_FIELD');
    const rootsUnknown = await call(t.app, {
      method: 'GET',
      call: 'getProofRoots',
      fields: { currency: 'USDT' },
    });
    expect(rootsUnknown.reason).toBe('UNKNOWN_FIELD');
  });
});
