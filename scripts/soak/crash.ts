import pg from 'pg';
import {
  Api,
  CUSTOMER_PASSWORD,
  type Customer,
  definitive,
  fundByAdjustment,
  newRtoken,
  type Outcome,
  registerCustomer,
  staffPair,
} from './client.ts';
import { fromUnits, quantityFor, scaleOf, shiftBps, toUnits } from './decimal.ts';
import { ledgerVerify } from './ledger.ts';
import { Checks, say } from './report.ts';
import { ADMIN, logLinesAtLeast, Server, sleep } from './server.ts';

/**
 * Crash battery: a mixed load of money operations, each with its own rtoken; `kill -9` at a
 * random moment 50–1500 ms into the load; restart on the same data dir; retry every operation
 * without a definitive answer with the SAME rtoken until it gets one. Then count each
 * operation's effects in the database — exactly one for an accepted operation, none for a
 * refused one — and run ledger:verify.
 *
 * Effects are attributed to their request by a value only that request carries: a unique amount
 * (transfers, withdrawals), a unique limit price (spot orders), the reason text (staff adjustments).
 */

const TRADE_PASSWORD = '246810';
const WITHDRAW_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
/**
 * After the last kill, how long unresolved operations are retried: a claim a crash left pending
 * goes stale (may be taken over) 2 minutes after it was made (http/idempotency.ts on main).
 */
const FINAL_RETRY_MS = 130_000;
const WORKERS = 6;

type Kind = 'transfer' | 'spot_order' | 'withdraw' | 'adjustment';

type Op = {
  n: number;
  kind: Kind;
  rtoken: string;
  customer: Customer;
  params: Record<string, string>;
  /** How its effect is found in the database. */
  marker: { units?: string; symbol?: string; priceTicks?: string; reason?: string };
  attempts: number;
  /** The first definitive answer: true accepted (code 1), false refused. Null: none yet. */
  accepted: boolean | null;
  answers: string[];
  everAccepted: boolean;
  /** The body of the first definitive answer (envelope without `time`), for the replay check. */
  first: string | null;
};

type Market = { symbol: string; price_tick: string; lot_size: string; bid: string };

export async function runCrash(options: { cycles: number; keep: boolean }): Promise<number> {
  const checks = new Checks();
  const server = await Server.create('crash');
  say(`server log: ${server.options.logFile}`);
  const t0 = Date.now();
  let exitCode = 1;
  try {
    await server.start();
    const api = new Api(server.baseUrl);
    const pgUrl = server.pgUrl();

    // ---- set-up: staff pair, withdrawal rules that let a test withdraw at any hour and often,
    // two real customers with 100,000 USDT (four-eyes adjustments; enough for ~100 cycles of withdrawals), a trade password and an address.
    const secrets = new Map<string, string>();
    const staff = await staffPair(api, ADMIN, secrets);
    const rules = (
      await api.adminData<{ rules: { code: string; enabled: boolean; params: unknown }[] }>(
        'GET',
        'withdrawals/rules',
        {},
        staff.maker,
      )
    ).rules;
    for (const rule of rules.filter((r) => ['window', 'daily_count', 'turnover'].includes(r.code))) {
      await api.adminData(
        'POST',
        'withdrawals/rules/update',
        {
          code: rule.code,
          enabled: '0',
          params: JSON.stringify(rule.params),
          reason: 'crash battery: withdrawals at any hour, any number',
        },
        staff.maker,
      );
    }
    const customers: Customer[] = [];
    for (const label of ['crash-a', 'crash-b']) {
      const c = await registerCustomer(api, pgUrl, label);
      await fundByAdjustment(api, staff, c, '100000', 'crash battery: starting balance');
      await api.webData(
        'POST',
        'bindTradePassword',
        { password: CUSTOMER_PASSWORD, trade_password: TRADE_PASSWORD, trade_password2: TRADE_PASSWORD },
        c.token,
      );
      await api.webData(
        'POST',
        'addAddress',
        { currency: 'USDT', chain: 'ERC20', address: WITHDRAW_ADDRESS },
        c.token,
      );
      customers.push(c);
    }
    const addressIds = new Map<string, string>();
    for (const c of customers) {
      const list = await api.webData<{ list: { id: string }[] }>(
        'GET',
        'getAddressList',
        { currency: 'USDT' },
        c.token,
      );
      addressIds.set(c.customerId, list.list[0]?.id ?? '');
    }
    // Order prices are set from the feed's reference (last) price: the book may still be empty.
    const markets: Market[] = [];
    const spot = (
      await api.webData<{ items: (Omit<Market, 'bid'> & { status: string })[] }>(
        'GET',
        'getSpotMarkets',
        {},
        null,
      )
    ).items;
    const tickers = (
      await api.webData<{ items: { symbol: string; last: string | null }[] }>(
        'GET',
        'getTickers',
        { symbols: spot.map((m) => m.symbol).join(',') },
        null,
      )
    ).items;
    for (const m of spot) {
      const last = tickers.find((t) => t.symbol === m.symbol)?.last;
      if (m.status === 'enabled' && last)
        markets.push({ symbol: m.symbol, price_tick: m.price_tick, lot_size: m.lot_size, bid: last });
    }
    if (markets.length === 0) throw new Error('no spot market has a bid to price orders from');
    say(`set-up done in ${Date.now() - t0} ms: 2 customers, ${markets.length} spot markets`);

    // ---- operations
    const ops: Op[] = [];
    const newOp = (): Op => {
      const n = ops.length + 1;
      const customer = customers[n % customers.length] as Customer;
      const kinds: Kind[] = ['transfer', 'spot_order', 'withdraw', 'adjustment'];
      const kind = kinds[Math.floor(Math.random() * kinds.length)] as Kind;
      const rtoken = newRtoken('c');
      let op: Op;
      const base = {
        n,
        kind,
        rtoken,
        customer,
        attempts: 0,
        accepted: null,
        answers: [],
        everAccepted: false,
        first: null,
      };
      if (kind === 'transfer') {
        // 1 + 0.000001 × n USDT (scale 8); one in eight asks for 1,000,000 more than the customer
        // has, to be refused (INSUFFICIENT_BALANCE) — a refused key must stay without effect.
        const over = Math.random() < 0.125 ? 100_000_000_000_000n : 0n;
        const units = over + 100_000_000n + BigInt(n) * 100n;
        op = {
          ...base,
          params: { currency: 'USDT', amount: fromUnits(units, 8), from: 'spot', to: 'contract' },
          marker: { units: String(units) },
        };
      } else if (kind === 'withdraw') {
        const units = 10_000_000_000n + BigInt(n) * 10_000n; // 100.0001 × n USDT
        op = {
          ...base,
          params: {
            method: 'address',
            address_id: addressIds.get(customer.customerId) ?? '',
            currency: 'USDT',
            amount: fromUnits(units, 8),
            trade_password: TRADE_PASSWORD,
          },
          marker: { units: String(units) },
        };
      } else if (kind === 'spot_order') {
        const m = markets[n % markets.length] as Market;
        // A resting buy ~3 % under the bid at a price no other operation uses: n ticks lower still.
        const tickScale = scaleOf(m.price_tick);
        const s = Math.max(tickScale, scaleOf(m.bid));
        const tickUnits = toUnits(m.price_tick, s);
        const below = toUnits(shiftBps(m.bid, m.price_tick, -300n), s) - BigInt(n) * tickUnits;
        const price = fromUnits(below, s);
        op = {
          ...base,
          params: {
            symbol: m.symbol,
            side: 'buy',
            type: 'limit',
            price,
            quantity: quantityFor('6', price, m.lot_size),
          },
          marker: { symbol: m.symbol, priceTicks: String(below / tickUnits) },
        };
      } else {
        const units = 50_000_000n + BigInt(n) * 100n; // 0.5 + 0.000001 × n USDT: under the approval threshold, posted at once
        const reason = `crash battery op ${n} ${rtoken}`;
        op = {
          ...base,
          params: {
            customer_id: customer.customerId,
            account_type: 'spot',
            currency: 'USDT',
            direction: 'credit',
            amount: fromUnits(units, 8),
            reason,
          },
          marker: { reason },
        };
      }
      ops.push(op);
      return op;
    };

    const send = async (op: Op): Promise<Outcome> => {
      op.attempts += 1;
      const outcome =
        op.kind === 'adjustment'
          ? await api.admin('POST', 'createAdjustment', op.params, staff.maker, op.rtoken, 10_000)
          : await api.web(
              'POST',
              op.kind === 'transfer' ? 'transferAsset' : op.kind === 'withdraw' ? 'withdraw' : 'createOrder',
              op.params,
              op.customer.token,
              op.rtoken,
              10_000,
            );
      if (outcome.ok) {
        op.answers.push(outcome.body.code === 1 ? 'ok' : (outcome.body.reason ?? String(outcome.body.code)));
        if (acknowledged(outcome.body)) op.everAccepted = true;
      } else {
        op.answers.push('no answer');
      }
      if (definitive(outcome) && op.accepted === null && outcome.ok) {
        op.accepted = acknowledged(outcome.body);
        op.first = bodyText(outcome.body);
      }
      return outcome;
    };

    const pending = () => ops.filter((o) => o.accepted === null);
    let retries = 0;
    const retryPending = async () => {
      for (const op of pending()) {
        retries += 1;
        await send(op);
      }
    };

    const delays: number[] = [];
    let lastKillAt = Date.now();
    for (let cycle = 1; cycle <= options.cycles; cycle++) {
      if (cycle > 1) {
        await server.start();
        await retryPending();
      }
      const delay = 50 + Math.floor(Math.random() * 1451);
      delays.push(delay);
      let down = false;
      const killer = (async () => {
        await sleep(delay);
        down = true;
        await server.kill9();
        lastKillAt = Date.now();
      })();
      const worker = async () => {
        while (!down) {
          const outcome = await send(newOp());
          if (!outcome.ok) return;
        }
      };
      await Promise.all([killer, ...Array.from({ length: WORKERS }, worker)]);
      say(
        `cycle ${cycle}/${options.cycles}: killed after ${delay} ms; ${ops.length} operations so far, ${pending().length} without a definitive answer`,
      );
    }

    // ---- the last restart: retry until every operation has its answer (or the time is up)
    await server.start();
    const finalStart = Date.now();
    while (pending().length > 0 && Date.now() - lastKillAt < FINAL_RETRY_MS) {
      await retryPending();
      if (pending().length > 0) await sleep(5_000);
    }
    say(
      `final retries: ${pending().length} still without a definitive answer after ${Math.round((Date.now() - finalStart) / 1000)} s`,
    );

    // ---- effects per key after the crashes and retries
    const effects = await countEffects(pgUrl, ops);

    const retried = ops.filter((o) => o.attempts > 1);

    // ---- one more replay of every answered key, the server up and calm: the first answer again, nothing more
    const replayMismatch: Op[] = [];
    for (const op of ops.filter((o) => o.accepted !== null)) {
      const outcome = await send(op);
      if (!outcome.ok || bodyText(outcome.body) !== op.first) replayMismatch.push(op);
    }
    const afterReplay = await countEffects(pgUrl, ops);
    const replayApplied = ops.filter((o) => (afterReplay.get(o) ?? 0) !== (effects.get(o) ?? 0));
    const ledger = await ledgerVerify(pgUrl);
    await server.stop();
    const errorLines = logLinesAtLeast(server.options.logFile, 50);

    // ---- figures
    const histogram = new Map<number, number>();
    for (const n of effects.values()) histogram.set(n, (histogram.get(n) ?? 0) + 1);
    const accepted = ops.filter((o) => o.accepted === true);
    const refused = ops.filter((o) => o.accepted === false);
    const unresolved = ops.filter((o) => o.accepted === null);
    const duplicates = ops.filter((o) => (effects.get(o) ?? 0) > 1);
    const lost = ops.filter((o) => o.everAccepted && (effects.get(o) ?? 0) === 0);
    const refusedWithEffect = refused.filter((o) => (effects.get(o) ?? 0) > 0);
    const byKind = (list: Op[]) => {
      const m = new Map<string, number>();
      for (const o of list) m.set(o.kind, (m.get(o.kind) ?? 0) + 1);
      return [...m].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
    };
    const refusalReasons = new Map<string, number>();
    for (const o of refused) {
      const r = o.answers.find((a) => a !== 'no answer' && a !== 'REQUEST_IN_PROGRESS') ?? '?';
      refusalReasons.set(`${o.kind} ${r}`, (refusalReasons.get(`${o.kind} ${r}`) ?? 0) + 1);
    }
    say('figures:');
    say(
      `  cycles: ${options.cycles} (kill -9 after ${delays.join(', ')} ms); server starts: ${server.starts}; run time ${Math.round((Date.now() - t0) / 1000)} s`,
    );
    say(
      `  operations: ${ops.length} (${byKind(ops)}); retried: ${retried.length} operations, ${retries} retries`,
    );
    const alreadyApplied = ops.filter((o) => o.answers.includes('REQUEST_ALREADY_APPLIED'));
    say(
      `  answers: ${accepted.length} accepted (${alreadyApplied.length} of them REQUEST_ALREADY_APPLIED), ${refused.length} refused, ${unresolved.length} never definitive`,
    );
    const sequences = new Map<string, number>();
    for (const o of retried) {
      const seq = runs(o.answers.slice(0, o.attempts - (o.accepted === null ? 0 : 1)));
      sequences.set(seq, (sequences.get(seq) ?? 0) + 1);
    }
    if (sequences.size > 0)
      say(`  answer sequences of retried keys: ${[...sequences].map(([k, n]) => `${k} (×${n})`).join('; ')}`);
    if (refusalReasons.size > 0)
      say(`  refusals: ${[...refusalReasons].map(([k, n]) => `${k} ×${n}`).join(', ')}`);
    say(
      `  effects per key: ${[...histogram]
        .sort((a, b) => a[0] - b[0])
        .map(([k, n]) => `${k} effect${k === 1 ? '' : 's'}: ${n}`)
        .join(', ')}`,
    );
    say(`  duplicates: ${duplicates.length} (${byKind(duplicates)})`);
    for (const o of duplicates.slice(0, 8))
      say(
        `    op ${o.n} ${o.kind} rtoken ${o.rtoken}: ${effects.get(o)} effects; answers ${runs(o.answers)}`,
      );
    say(
      `  calm replay of every answered key: ${replayMismatch.length} answered otherwise than the first time (${byKind(replayMismatch)}), ${replayApplied.length} applied again (${byKind(replayApplied)})`,
    );
    say(`  acknowledged but lost: ${lost.length}; refused but applied: ${refusedWithEffect.length}`);
    say(`  error lines (pino level ≥ 50): ${errorLines.length}; ledger:verify exit ${ledger.code}`);

    // ---- checks
    checks.check(
      'every operation got a definitive answer',
      unresolved.length === 0,
      unresolved.length === 0
        ? `${ops.length} operations`
        : `${unresolved.length} unresolved (${byKind(unresolved)}), last answers: ${unresolved
            .slice(0, 3)
            .map((o) => o.answers.at(-1))
            .join(', ')}`,
    );
    checks.check(
      'exactly one effect per accepted key',
      accepted.every((o) => effects.get(o) === 1),
      `${accepted.filter((o) => effects.get(o) === 1).length}/${accepted.length} accepted keys with one effect; duplicates: ${duplicates.length} (${byKind(duplicates)})`,
    );
    checks.check(
      'no effect for a refused key',
      refusedWithEffect.length === 0,
      `${refusedWithEffect.length} of ${refused.length} refused keys have an effect (${byKind(refusedWithEffect)})`,
    );
    checks.check(
      'no acknowledged operation lost',
      lost.length === 0,
      `${lost.length} keys answered "ok" without an effect (${byKind(lost)})`,
    );
    checks.check(
      'a replay returns the first answer and changes nothing',
      replayMismatch.length === 0 && replayApplied.length === 0,
      `${ops.length - unresolved.length} answered keys replayed: ${replayMismatch.length} answered otherwise (${byKind(replayMismatch)}), ${replayApplied.length} applied again (${byKind(replayApplied)})`,
    );
    checks.check(
      'ledger invariants (ledger:verify)',
      ledger.code === 0,
      ledger.code === 0 ? 'ok' : ledger.output.trim().slice(-800),
    );
    exitCode = checks.print();
    if (errorLines.length > 0) {
      const byMsg = new Map<string, number>();
      for (const l of errorLines) byMsg.set(l.msg, (byMsg.get(l.msg) ?? 0) + 1);
      say(
        `not a check here (the soak mode checks them): ${errorLines.length} error lines in ${server.options.logFile}:`,
      );
      for (const [msg, n] of [...byMsg].slice(0, 6)) say(`  ×${n} ${msg.slice(0, 160)}`);
    }
  } catch (error) {
    say(
      `crash battery could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    checks.check('crash battery ran', false, error instanceof Error ? error.message : String(error));
    checks.print();
    exitCode = 1;
  } finally {
    await server.stop();
    if (!options.keep) server.cleanup();
  }
  return exitCode;
}

/** Effects per operation in the database, found by each operation's marker. */
async function countEffects(pgUrl: string, ops: Op[]): Promise<Map<Op, number>> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  const out = new Map<Op, number>();
  try {
    for (const op of ops) {
      let count = 0;
      if (op.kind === 'transfer') {
        const r = await client.query<{ n: string }>(
          `select count(distinct e.id) as n from ledger_entry e
             join ledger_posting p on p.entry_id = e.id
             join ledger_account a on a.id = p.account_id
            where e.reason = 'transfer' and a.customer_id = $1 and a.account_type = 'spot'
              and p.currency = 'USDT' and p.amount = -($2::numeric)`,
          [op.customer.customerId, op.marker.units],
        );
        count = Number(r.rows[0]?.n ?? 0);
      } else if (op.kind === 'withdraw') {
        const r = await client.query<{ n: string }>(
          `select count(*) as n from withdrawals_withdrawal where customer_id = $1 and amount = $2::numeric`,
          [op.customer.customerId, op.marker.units],
        );
        count = Number(r.rows[0]?.n ?? 0);
      } else if (op.kind === 'spot_order') {
        const r = await client.query<{ n: string }>(
          `select count(*) as n from spot_order where customer_id = $1 and symbol = $2 and price_ticks = $3::numeric`,
          [op.customer.customerId, op.marker.symbol, op.marker.priceTicks],
        );
        count = Number(r.rows[0]?.n ?? 0);
      } else {
        const r = await client.query<{ n: string }>(
          `select count(*) as n from staff_adjustment where reason = $1`,
          [op.marker.reason],
        );
        count = Number(r.rows[0]?.n ?? 0);
      }
      out.set(op, count);
    }
  } finally {
    await client.end();
  }
  return out;
}

/**
 * An answer that says the operation took effect: success, or `REQUEST_ALREADY_APPLIED` (the effect
 * committed, the answer was lost in a crash — the idempotency rewrite's answer for that case).
 */
function acknowledged(body: { code: number; reason?: string }): boolean {
  return body.code === 1 || body.reason === 'REQUEST_ALREADY_APPLIED';
}

/** An answer's envelope minus its `time`, as text: what a replay must repeat. */
function bodyText(body: object): string {
  const { time: _time, ...rest } = body as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** `a → b ×3 → c`: a list of answers with repeats folded. */
function runs(answers: string[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < answers.length) {
    let j = i;
    while (j < answers.length && answers[j] === answers[i]) j++;
    out.push(j - i > 1 ? `${answers[i]} ×${j - i}` : (answers[i] as string));
    i = j;
  }
  return out.join(' → ');
}
