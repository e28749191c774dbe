import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, rtoken, startTestApp, type TestApp } from '../../../test/harness.ts';
import { expectLogLine } from '../../../test/logwatch.ts';
import { fund, USDT } from '../assets/testing.ts';
import { ratedCustomer } from '../suitability/testing.ts';

/**
 * Close-all is one effect: every position closes in one transaction with the request's claim, so a
 * failure part way closes none and the retry of the same rtoken closes them all — never "already
 * applied" with positions still open.
 */
const S = Date.parse('2026-11-21T04:00:00Z');
const PERP = 'BTC/USDT-PERP';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-contracts-close-all-'));
  const file = path.join(dir, 'ticks.jsonl');
  const tick = { time: S, symbol: PERP, price: '95000.0', bid: '95000.0', ask: '95000.0', mark: '95000.0' };
  fs.writeFileSync(file, `${JSON.stringify(tick)}\n`);
  t = await startTestApp(
    { feed: 'replay', replayFile: file, replayLoop: false, feedTickMs: 0, staleAfterMs: 3_600_000 },
    { now: new Date(S) },
  );
  await t.app.market.step();
  await t.app.market.flushRecorder();
});
afterAll(async () => {
  await t?.db.schema.dropTable('close_all_fault').ifExists().execute();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const openIds = async (customerId: string) =>
  (
    await t.db
      .selectFrom('contracts_position')
      .select('id')
      .where('customer_id', '=', customerId)
      .where('status', '=', 'open')
      .orderBy('id')
      .execute()
  ).map((r) => r.id);

describe('closeAllContracts', () => {
  it('a failure part way closes nothing; the retry of the same rtoken closes every position once', async () => {
    const c = await ratedCustomer(t);
    await fund(t, c.id, 'USDT', USDT(5000), 'contract');
    for (let k = 0; k < 3; k += 1) {
      const o = await call(t.app, {
        call: 'openContract',
        fields: { symbol: PERP, side: 'buy', lots: '0.01', leverage: '10' },
        headers: { token: c.token },
      });
      expect(o.code, o.reason).toBe(1);
    }
    const ids = await openIds(c.id);
    expect(ids).toHaveLength(3);
    // The second close row written cannot be (as a crash there would stop it), whichever position.
    await sql`create table if not exists close_all_fault (n int not null)`.execute(t.db);
    await sql`insert into close_all_fault values (0)`.execute(t.db);
    await sql`create or replace function close_all_fault() returns trigger language plpgsql as $$
      declare v int;
      begin
        update close_all_fault set n = n + 1 returning n into v;
        if v = 2 then raise exception 'close_all_fault'; end if;
        return new;
      end $$`.execute(t.db);
    await sql`create trigger close_all_fault before insert on contracts_close
      for each row execute function close_all_fault()`.execute(t.db);
    const key = rtoken();
    const send = () =>
      call(t.app, {
        call: 'closeAllContracts',
        fields: { symbol: PERP, rtoken: key },
        headers: { token: c.token },
      });
    expectLogLine(/close_all_fault/);
    const failed = await send();
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await openIds(c.id)).toEqual(ids);
    await sql`drop trigger close_all_fault on contracts_close`.execute(t.db);
    const retried = await send();
    expect(retried.code, retried.reason).toBe(1);
    expect(retried.data.closed.map((x: { position_id: string }) => x.position_id).sort()).toEqual(ids);
    expect(await openIds(c.id)).toEqual([]);
    // Once answered, the same rtoken replays the answer and closes nothing more.
    const replay = await send();
    expect(replay.data.closed).toHaveLength(3);
    const closes = await t.db
      .selectFrom('contracts_close')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('position_id', 'in', ids)
      .executeTakeFirstOrThrow();
    expect(Number(closes.n)).toBe(3);
  });
});
