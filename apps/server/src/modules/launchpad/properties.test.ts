import { allocateFirstCome, allocateProRata } from '@bourse/proof';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Refusal } from '../../http/refusal.ts';
import { customerId, type LedgerFixture, openLedgerFixture } from '../ledger/testing.ts';
import { projectsDue } from './repo.ts';
import { authOf, DAY, HOUR, launchpadOn, projectBody, staffA } from './testing.ts';

/**
 * The allocation's promises on PostgreSQL, with the service's other ports stubbed as "allowed":
 * random projects and commitments run through subscribe → close → review → allocate (→ release),
 * and every line is checked against the rules; a crash mid-allocation resumes to the same result;
 * the window's edge and first come's last lots under a race.
 */

let f: LedgerFixture;
beforeAll(async () => {
  f = await openLedgerFixture({ poolMax: 20 });
}, 120_000);
afterAll(async () => f?.close());

const U = 10n ** 8n;
let n = 0;
const ref = () => ({ type: 'test', id: `t${++n}` });

async function credit(id: string, units: bigint) {
  await f.ledger.credit(f.db, {
    book: 'real',
    customerId: id,
    accountType: 'spot',
    currency: 'USDT',
    amountUnits: units,
    from: 'deposits_clearing',
    reference: ref(),
    idempotencyKey: `lp-credit:${id}:${n}`,
  });
}

async function usdt(id: string) {
  const b = await f.ledger.balance(f.db, {
    book: 'real',
    customerId: id,
    accountType: 'spot',
    currency: 'USDT',
  });
  return { available: b.availableUnits, frozen: b.frozenUnits };
}

async function coinBalance(id: string, coin: string, type: 'spot' | 'funding') {
  const b = await f.ledger.balance(f.db, { book: 'real', customerId: id, accountType: type, currency: coin });
  return { available: b.availableUnits, frozen: b.frozenUnits };
}

/** The issuer contra's balance in a coin: minus the coins issued and not returned. */
async function issued(coin: string) {
  const rows = await f.ledger.platformBalances(f.db, { book: 'real', platform: 'launchpad_issuance' });
  return rows.find((r) => r.currency === coin)?.availableUnits ?? 0n;
}

async function refusalOf(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (error) {
    if (error instanceof Refusal) return error.reason;
    throw error;
  }
}

async function rowsOf(projectId: string) {
  return f.db
    .selectFrom('launchpad_subscription')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('seq')
    .execute();
}

const scenario = fc.record({
  mode: fc.constantFrom('pro_rata' as const, 'first_come' as const),
  supply: fc.integer({ min: 5, max: 400 }),
  capShare: fc.integer({ min: 5, max: 100 }),
  softCap: fc.integer({ min: 0, max: 120 }),
  fee: fc.constantFrom('0', '0.1', '0.5', '1.25'),
  wants: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }),
});

describe('random projects end to end', () => {
  it('allocations within supply, request and cap; every customer paid + fee + refund = frozen; roots recompute', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const { launchpad } = launchpadOn(f);
        const now = f.clock.now().getTime();
        const cap = Math.max(1, Math.floor((s.supply * s.capShare) / 100));
        const body = projectBody(now, {
          mode: s.mode,
          supply: String(s.supply),
          per_customer_cap: String(cap),
          soft_cap: String(Math.min(s.softCap, s.supply)),
          fee_rate: s.fee,
        });
        const created = await launchpad.createProject(staffA, body);
        const pid = created?.project_id as string;
        await launchpad.act(staffA, pid, { action: 'announce', reason: 'test announce' });
        f.clock.advance(HOUR);
        await launchpad.job.runOnce();
        const people: Array<{ id: string; credited: bigint }> = [];
        for (const want of s.wants) {
          const id = customerId();
          const credited = BigInt(want) * U * 2n;
          await credit(id, credited);
          people.push({ id, credited });
          await refusalOf(
            launchpad.subscribe(
              authOf(id),
              { project_id: pid, quantity: String(want), accept_terms: '1' },
              'en',
            ),
          );
        }
        f.clock.advance(DAY);
        await launchpad.job.runOnce();
        const p = (await launchpad.adminProjects()).items.find((x) => x.project_id === pid);
        const rows = await rowsOf(pid);
        const committed = rows.reduce((sum, r) => sum + BigInt(r.lots), 0n);
        if (rows.length === 0 || committed < BigInt(Math.min(s.softCap, s.supply))) {
          expect(p?.state).toBe('refunded');
          for (const r of rows) expect(r.state).toBe('refunded');
        } else {
          expect(p?.state).toBe('distributed');
          const commitments = rows.map((r) => ({ key: r.id, seq: r.seq, lots: BigInt(r.lots) }));
          const expected =
            s.mode === 'pro_rata'
              ? allocateProRata(commitments, BigInt(s.supply), BigInt(cap))
              : allocateFirstCome(commitments, BigInt(s.supply), BigInt(cap));
          let total = 0n;
          for (const r of rows) {
            const got = BigInt(r.allocated_lots as string);
            expect(r.state).toBe('allocated');
            expect(got).toBe(expected.lots.get(r.id));
            expect(got).toBeLessThanOrEqual(BigInt(r.lots));
            expect(got).toBeLessThanOrEqual(BigInt(cap));
            total += got;
          }
          expect(total).toBeLessThanOrEqual(BigInt(s.supply));
          const roots = await launchpad.recomputeRoots(pid);
          expect(roots.commitment.hash).toBe(p?.allocation?.commitment_root.hash);
          expect(roots.allocation.hash).toBe(p?.allocation?.allocation_root.hash);
          expect(roots.allocation.sum).toBe(total);
        }
        for (const person of people) {
          const r = rows.find((x) => x.customer_id === person.id);
          const bal = await usdt(person.id);
          expect(bal.frozen).toBe(0n);
          if (!r) {
            expect(bal.available).toBe(person.credited);
            continue;
          }
          const paid = BigInt(r.paid_units ?? '0') + BigInt(r.fee_paid_units ?? '0');
          expect(paid + BigInt(r.refunded_units as string)).toBe(BigInt(r.frozen_units));
          expect(bal.available).toBe(person.credited - paid);
        }
      }),
      { numRuns: 12 },
    );
    const report = await f.ledger.verify();
    expect(report.ok).toBe(true);
  }, 240_000);
});

describe('the job with a stepped clock', () => {
  async function closedProject(over: Parameters<typeof projectBody>[1] = {}) {
    const { launchpad, deps } = launchpadOn(f);
    const created = await launchpad.createProject(staffA, projectBody(f.clock.now().getTime(), over));
    const pid = created?.project_id as string;
    await launchpad.act(staffA, pid, { action: 'announce', reason: 'test announce' });
    f.clock.advance(HOUR);
    await launchpad.job.runOnce();
    const ids: string[] = [];
    for (const want of ['300', '500', '700', '2']) {
      const id = customerId();
      await credit(id, 10_000n * U);
      await launchpad.subscribe(authOf(id), { project_id: pid, quantity: want, accept_terms: '1' }, 'en');
      ids.push(id);
    }
    f.clock.advance(DAY);
    return { pid, ids, deps, coin: created?.coin as string };
  }

  it('a crash during allocation resumes to the same result, each effect once', async () => {
    const { pid } = await closedProject();
    let calls = 0;
    const crashing = launchpadOn(f, {
      afterAllocationPost: () => {
        calls += 1;
        if (calls === 2) throw new Error('crash after the second line');
      },
    }).launchpad;
    await expect(crashing.job.runOnce()).rejects.toThrow('crash after the second line');
    const mid = (await crashing.adminProjects()).items.find((x) => x.project_id === pid);
    expect(mid?.state).toBe('allocating');
    const planned = (await rowsOf(pid)).map((r) => [r.id, r.allocated_lots, r.leaf_index]);
    expect((await rowsOf(pid)).filter((r) => r.state === 'allocated')).toHaveLength(1);
    await crashing.job.runOnce();
    const after = (await crashing.adminProjects()).items.find((x) => x.project_id === pid);
    expect(after?.state).toBe('distributed');
    expect(after?.allocation).toEqual(mid?.allocation);
    const rows = await rowsOf(pid);
    expect(rows.map((r) => [r.id, r.allocated_lots, r.leaf_index])).toEqual(planned);
    const entries = await f.db
      .selectFrom('ledger_entry')
      .select('idempotency_key')
      .where('reason', '=', 'launchpad.allocate')
      .where(
        'reference_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(entries).toHaveLength(rows.length);
    // 1,000 offered, 1,502 asked, cap 400: 700 is held at the cap (700 × 1000 ≥ 400 × 1502); the
    // others share 600 by 802 — 224.4, 374.1, 1.5 — and the one lot left goes to the largest remainder (2).
    expect(rows.map((r) => r.allocated_lots)).toEqual(['224', '374', '400', '2']);
  });

  it('locks the coins until listing + lock-up, then releases each exactly once', async () => {
    const { pid, ids, coin } = await closedProject();
    const { launchpad } = launchpadOn(f);
    await launchpad.job.runOnce();
    const first = ids[0] as string;
    expect(await coinBalance(first, coin, 'funding')).toEqual({ available: 0n, frozen: 224n * U });
    f.clock.advance(DAY + 29 * DAY); // listing + 29 days: still locked
    await launchpad.job.runOnce();
    expect((await coinBalance(first, coin, 'funding')).frozen).toBe(224n * U);
    f.clock.advance(DAY);
    await launchpad.job.runOnce();
    await launchpad.job.runOnce();
    expect(await coinBalance(first, coin, 'funding')).toEqual({ available: 0n, frozen: 0n });
    expect(await coinBalance(first, coin, 'spot')).toEqual({ available: 224n * U, frozen: 0n });
    // Every coin offered was allocated: the issuer's contra shows them all issued.
    expect(await issued(coin)).toBe(-1000n * U);
    const runs = await launchpad.runs(pid);
    const release = runs.items.find((r) => r.kind === 'release');
    expect(release?.subscriptions).toBe(4);
    expect(release?.lots).toBe('1000');
    expect(release?.finished_at).not.toBeNull();
    // Released and finished: the job never reads this project again.
    const due = await projectsDue(f.db, f.clock.now());
    expect(due.map((p) => p.id)).not.toContain(pid);
  });

  it('a missed soft cap refunds everyone in full within the deadline, and the supply goes back', async () => {
    const { pid, ids } = await closedProject({ soft_cap: '1600', per_customer_cap: '1000', supply: '2000' });
    const { launchpad } = launchpadOn(f);
    await launchpad.job.runOnce();
    const p = (await launchpad.adminProjects()).items.find((x) => x.project_id === pid);
    expect(p?.state).toBe('refunded');
    expect(p?.failure_reason).toBe('soft_cap_missed');
    expect(p?.refund_deadline_at).toBe((p?.failed_at as number) + 24 * HOUR);
    for (const id of ids) expect(await usdt(id)).toEqual({ available: 10_000n * U, frozen: 0n });
    expect(await issued(p?.coin as string)).toBe(0n);
    const rows = await rowsOf(pid);
    for (const r of rows) {
      expect(r.state).toBe('refunded');
      expect((r.refunded_at as Date).getTime()).toBeLessThanOrEqual(p?.refund_deadline_at as number);
    }
  });

  it('the issuer withdrawing refunds everyone; staff cannot announce twice or pay out before listing', async () => {
    const { launchpad } = launchpadOn(f);
    const created = await launchpad.createProject(staffA, projectBody(f.clock.now().getTime()));
    const pid = created?.project_id as string;
    await launchpad.act(staffA, pid, { action: 'announce', reason: 'test announce' });
    expect(await refusalOf(launchpad.act(staffA, pid, { action: 'announce', reason: 'again' }))).toBe(
      'LAUNCHPAD_ACTION_REFUSED',
    );
    f.clock.advance(HOUR);
    await launchpad.job.runOnce();
    const id = customerId();
    await credit(id, 100n * U);
    await launchpad.subscribe(authOf(id), { project_id: pid, quantity: '50', accept_terms: '1' }, 'en');
    expect((await usdt(id)).frozen).toBe(50n * U + (50n * U * 50n) / 10_000n);
    expect(await refusalOf(launchpad.act(staffA, pid, { action: 'pay_issuer', reason: 'early' }))).toBe(
      'LAUNCHPAD_ACTION_REFUSED',
    );
    await launchpad.act(staffA, pid, { action: 'withdraw', reason: 'issuer withdrew' });
    await launchpad.job.runOnce();
    expect(await usdt(id)).toEqual({ available: 100n * U, frozen: 0n });
    const [row] = await rowsOf(pid);
    expect(row?.failure_reason).toBe('issuer_withdrew');
  });
});

describe('races', () => {
  it('first come: many customers racing for the last lots never oversell', async () => {
    const { launchpad } = launchpadOn(f);
    const created = await launchpad.createProject(
      staffA,
      projectBody(f.clock.now().getTime(), {
        mode: 'first_come',
        supply: '10',
        per_customer_cap: '10',
        soft_cap: '0',
      }),
    );
    const pid = created?.project_id as string;
    await launchpad.act(staffA, pid, { action: 'announce', reason: 'test announce' });
    f.clock.advance(HOUR);
    await launchpad.job.runOnce();
    const ids = Array.from({ length: 12 }, () => customerId());
    for (const id of ids) await credit(id, 100n * U);
    const answers = await Promise.all(
      ids.map((id) =>
        refusalOf(
          launchpad.subscribe(authOf(id), { project_id: pid, quantity: '3', accept_terms: '1' }, 'en'),
        ),
      ),
    );
    expect(answers.filter((a) => a === null)).toHaveLength(3);
    for (const a of answers) expect([null, 'LAUNCHPAD_REMAINING', 'LAUNCHPAD_SOLD_OUT']).toContain(a);
    const rows = await rowsOf(pid);
    expect(rows.reduce((s, r) => s + BigInt(r.lots), 0n)).toBe(9n);
    const last = customerId();
    await credit(last, 100n * U);
    await launchpad.subscribe(authOf(last), { project_id: pid, quantity: '1', accept_terms: '1' }, 'en');
    expect(
      await refusalOf(
        launchpad.subscribe(
          authOf(customerId()),
          { project_id: pid, quantity: '1', accept_terms: '1' },
          'en',
        ),
      ),
    ).toBe('LAUNCHPAD_SOLD_OUT');
    const info = await launchpad.info(null, pid, 'en');
    expect(info.project.sold_out).toBe(true);
  });

  it("at the window's edge: nobody gets in at or after the close, whatever the interleaving", async () => {
    const { launchpad } = launchpadOn(f);
    const created = await launchpad.createProject(staffA, projectBody(f.clock.now().getTime()));
    const pid = created?.project_id as string;
    await launchpad.act(staffA, pid, { action: 'announce', reason: 'test announce' });
    f.clock.advance(HOUR);
    await launchpad.job.runOnce();
    f.clock.advance(DAY - 1);
    const closesAt = f.clock.now().getTime() + 1;
    const ids = Array.from({ length: 16 }, () => customerId());
    for (const id of ids) await credit(id, 100n * U);
    const racing = ids.map((id, i) =>
      new Promise((r) => setTimeout(r, i)).then(() =>
        refusalOf(
          launchpad.subscribe(authOf(id), { project_id: pid, quantity: '2', accept_terms: '1' }, 'en'),
        ),
      ),
    );
    await new Promise((r) => setTimeout(r, 8));
    f.clock.advance(1);
    const answers = await Promise.all(racing);
    for (const a of answers) expect([null, 'LAUNCHPAD_ENDED']).toContain(a);
    expect(answers).toContain('LAUNCHPAD_ENDED');
    for (const r of await rowsOf(pid)) expect(r.created_at.getTime()).toBeLessThan(closesAt);
    // Refused means unchanged: nothing frozen for those who were late.
    for (const [i, id] of ids.entries()) if (answers[i] !== null) expect((await usdt(id)).frozen).toBe(0n);
    await launchpad.job.runOnce();
    expect(
      await refusalOf(
        launchpad.subscribe(
          authOf(customerId()),
          { project_id: pid, quantity: '2', accept_terms: '1' },
          'en',
        ),
      ),
    ).not.toBeNull();
  });
});
