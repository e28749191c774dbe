import fs from 'node:fs';
import {
  Api,
  type Customer,
  demoCustomer,
  fundByAdjustment,
  must,
  registerCustomer,
  staffPair,
} from './client.ts';
import { atMost, offsetTicks, quantityFor, shiftBps } from './decimal.ts';
import { ledgerVerify } from './ledger.ts';
import { Checks, say } from './report.ts';
import { ADMIN, logLinesAtLeast, Server, sleep } from './server.ts';

/**
 * Soak: the real server with `npm start` defaults, a few scripted customers trading spot (limit and
 * market orders), contracts (open, close) and up/down options on both books for `minutes`; then
 * the checks (error lines, markets moving per book, memory growth, ledger invariants).
 */

/** Memory bounds, from the warm-up sample (after set-up and 30 s of trading) to the end. */
export const HEAP_GROWTH_BOUND_MB = 100;
export const RSS_GROWTH_BOUND_MB = 150;

type SpotMarket = {
  symbol: string;
  base: string;
  price_tick: string;
  lot_size: string;
  min_notional: string;
  status: string;
};

type Memory = { source: 'healthz heap_used' | 'rss'; bytes: number };

/** Questionnaire answers that rate a customer balanced (the scoring table of modules/suitability). */
const BALANCED_ANSWERS = {
  account_purpose: 'active_trading',
  investment_purpose: 'growth',
  amount_band: '1k_10k',
  monthly_trades: '5_100',
  occupation: 'employed',
  experience_years: '1_3',
  derivatives_3y: 'under_10',
  leverage_loss: 'whole_margin',
  option_expiry: 'payout_or_stake_lost',
  loss_capacity: 'under_10',
};

async function sampleMemory(server: Server): Promise<Memory | null> {
  try {
    const r = await fetch(`${server.baseUrl}/healthz?detail=1`, { signal: AbortSignal.timeout(5_000) });
    const body = (await r.json()) as {
      process?: { heap_used_bytes?: number };
      data?: { process?: { heap_used_bytes?: number } };
    };
    const heap = body.process?.heap_used_bytes ?? body.data?.process?.heap_used_bytes;
    if (typeof heap === 'number') return { source: 'healthz heap_used', bytes: heap };
  } catch {
    // no detail there: fall back to the process's resident set
  }
  const pid = server.pid;
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = status.match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1];
    return kb ? { source: 'rss', bytes: Number(kb) * 1024 } : null;
  } catch {
    return null;
  }
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

type Stats = {
  spotLimit: number;
  spotMarket: number;
  spotMarketFilled: number;
  spotCancel: number;
  contractsOpened: number;
  contractsClosed: number;
  options: number;
  refusals: Map<string, number>;
  noAnswer: string[];
};

export async function runSoak(options: { minutes: number; keep: boolean }): Promise<number> {
  const checks = new Checks();
  const server = await Server.create('run');
  say(`server log: ${server.options.logFile}`);
  say(`data dir:   ${server.options.dataDir}`);
  const started = Date.now();
  await server.start();
  say(`server up at ${server.baseUrl} (pid ${server.pid}) in ${Date.now() - started} ms`);
  const api = new Api(server.baseUrl);
  const pgUrl = server.pgUrl();
  const byBook = {
    real: { opened: 0, closed: 0, options: 0, spot: 0 },
    demo: { opened: 0, closed: 0, options: 0, spot: 0 },
  };
  const stats: Stats = {
    spotLimit: 0,
    spotMarket: 0,
    spotMarketFilled: 0,
    spotCancel: 0,
    contractsOpened: 0,
    contractsClosed: 0,
    options: 0,
    refusals: new Map(),
    noAnswer: [],
  };
  let exitCode = 1;
  try {
    // ---- set-up: staff (two, for four eyes), two real customers funded by adjustments, two demo customers
    const secrets = new Map<string, string>();
    const staff = await staffPair(api, ADMIN, secrets);
    const customers: Customer[] = [];
    let fourEyes = 0;
    for (const label of ['soak-real-a', 'soak-real-b']) {
      const c = await registerCustomer(api, pgUrl, label);
      // Real-book contracts and options are capped by the risk rating (modules/suitability): a
      // customer who never took the questionnaire gets the "not assessed" caps (5×), under what the
      // soak trades, so each real customer answers it first (rated balanced: 50×).
      await api.webData('POST', 'submitQuestionnaire', BALANCED_ANSWERS, c.token);
      await fundByAdjustment(api, staff, c, '900', 'soak: starting balance');
      const big = await fundByAdjustment(api, staff, c, '5000', 'soak: starting balance (four eyes)');
      if (big.approved && big.status === 'posted') fourEyes += 1;
      customers.push(c);
    }
    for (const label of ['soak-demo-a', 'soak-demo-b']) customers.push(await demoCustomer(api, pgUrl, label));
    for (const c of customers) {
      const scale = c.book === 'real' ? 1n : 10n;
      for (const [to, amount] of [
        ['contract', 1500n],
        ['options', 500n],
      ] as const) {
        await api.webData(
          'POST',
          'transferAsset',
          { currency: 'USDT', amount: String(amount * scale), from: 'spot', to },
          c.token,
        );
      }
    }
    say(
      `set-up: ${customers.length} customers (2 real funded by adjustments, ${fourEyes} approved by a second staff member; 2 demo)`,
    );

    const markets = must(
      'getSpotMarkets',
      await api.web<{ items: SpotMarket[] }>('GET', 'getSpotMarkets', {}, null),
    ).items.filter((m) => m.status === 'enabled');
    const demoToken = customers.find((c) => c.book === 'demo')?.token ?? null;
    const contracts = must(
      'getContracts',
      await api.web<{
        items: {
          symbol: string;
          asset_class: string;
          open: boolean;
          enabled: boolean;
          min_lots: string;
          leverage_choices: number[];
        }[];
      }>('GET', 'getContracts', {}, null),
    ).items.filter((c) => c.open && c.enabled);
    // Contracts a small account can afford at their minimum size.
    const affordable: { symbol: string; lots: string; leverage: string }[] = [];
    for (const c of contracts) {
      const leverage = String(Math.max(...c.leverage_choices.filter((l) => l <= 20), 1));
      const quote = await api.web<{ required: string }>(
        'GET',
        'getContractQuote',
        { symbol: c.symbol, side: 'buy', lots: c.min_lots, leverage },
        null,
      );
      if (quote.ok && quote.body.code === 1 && atMost(quote.body.data.required, '150')) {
        affordable.push({ symbol: c.symbol, lots: c.min_lots, leverage });
      }
      if (affordable.length >= 6) break;
    }
    const optionSymbols = must(
      'getOptions',
      await api.web<{
        items: {
          symbol: string;
          open: boolean;
          enabled: boolean;
          min_stake: string;
          durations: { seconds: number }[];
        }[];
      }>('GET', 'getOptions', {}, null),
    ).items.filter((o) => o.open && o.enabled);
    say(
      `markets: ${markets.length} spot (${markets.map((m) => m.symbol).join(', ')}), ${affordable.length} contracts open and affordable, ${optionSymbols.length} option instruments open`,
    );

    // ---- markets moving: top of book sampled every 5 s per market and book, counted after the warm-up
    // (a market maker that quotes once at start and then dies must not count as moving).
    const tops = new Map<string, Set<string>>();
    const lastPrices = new Map<string, Set<string>>();
    const sampleMarkets = async (count: boolean) => {
      for (const m of markets) {
        for (const book of ['real', 'demo'] as const) {
          const token = book === 'demo' ? demoToken : null;
          const depth = await api.web<{ bids: string[][]; asks: string[][] }>(
            'GET',
            'getDepth',
            { symbol: m.symbol, limit: '1' },
            token,
          );
          const key = `${m.symbol} ${book}`;
          if (count && depth.ok && depth.body.code === 1) {
            const top = `${depth.body.data.bids[0]?.[0] ?? '-'}|${depth.body.data.asks[0]?.[0] ?? '-'}`;
            tops.set(key, (tops.get(key) ?? new Set()).add(top));
          }
          const trades = await api.web<{ items: { price: string }[] }>(
            'GET',
            'getSpotTrades',
            { symbol: m.symbol, limit: '1' },
            token,
          );
          if (count && trades.ok && trades.body.code === 1 && trades.body.data.items[0]) {
            lastPrices.set(key, (lastPrices.get(key) ?? new Set()).add(trades.body.data.items[0].price));
          }
        }
      }
    };

    const deadline = Date.now() + options.minutes * 60_000;
    const warmUpAt = Date.now() + Math.min(30_000, (options.minutes * 60_000) / 4);
    // Samples after the warm-up; start and end are each the lowest of three samples (the least GC noise).
    const memorySamples: Memory[] = [];
    let heapPeak = 0;
    const sampler = (async () => {
      while (Date.now() < deadline) {
        await sampleMarkets(Date.now() >= warmUpAt);
        const memory = await sampleMemory(server);
        if (memory) {
          heapPeak = Math.max(heapPeak, memory.bytes);
          if (Date.now() >= warmUpAt) memorySamples.push(memory);
        }
        await sleep(5_000);
      }
    })();

    // ---- the customers
    const note = (what: string, outcome: Awaited<ReturnType<Api['web']>>): boolean => {
      if (!outcome.ok) {
        stats.noAnswer.push(`${what}: ${outcome.error}`);
        return false;
      }
      if (outcome.http >= 500) {
        stats.noAnswer.push(`${what}: HTTP ${outcome.http} ${outcome.body.reason ?? ''} ${outcome.body.msg}`);
        return false;
      }
      if (outcome.body.code !== 1) {
        const key = `${what} ${outcome.body.reason ?? outcome.body.code}`;
        stats.refusals.set(key, (stats.refusals.get(key) ?? 0) + 1);
        return false;
      }
      return true;
    };

    const trader = async (c: Customer) => {
      const positions: string[] = [];
      const openOrders: string[] = [];
      while (Date.now() < deadline) {
        const roll = Math.random();
        const m = pick(markets);
        if (roll < 0.3) {
          // A limit order resting behind the top of the book (never improving it: "moved" is the market maker's doing).
          const depth = await api.web<{ bids: string[][]; asks: string[][] }>(
            'GET',
            'getDepth',
            { symbol: m.symbol, limit: '1' },
            c.token,
          );
          const bid = depth.ok ? depth.body.data?.bids?.[0]?.[0] : undefined;
          const ask = depth.ok ? depth.body.data?.asks?.[0]?.[0] : undefined;
          if (bid && ask) {
            const side = Math.random() < 0.6 ? 'buy' : 'sell';
            const ticks = BigInt(1 + Math.floor(Math.random() * 20));
            const price =
              side === 'buy'
                ? offsetTicks(shiftBps(bid, m.price_tick, -20n), m.price_tick, -ticks)
                : offsetTicks(shiftBps(ask, m.price_tick, 20n), m.price_tick, ticks + 1n);
            const quantity = quantityFor('12', price, m.lot_size);
            const r = await api.web<{ order_id: string }>(
              'POST',
              'createOrder',
              { symbol: m.symbol, side, type: 'limit', price, quantity },
              c.token,
            );
            if (note('createOrder limit', r) && r.ok) {
              stats.spotLimit += 1;
              byBook[c.book].spot += 1;
              openOrders.push(r.body.data.order_id);
            }
          }
          if (openOrders.length > 4) {
            const id = openOrders.shift() as string;
            if (note('cancelOrder', await api.web('POST', 'cancelOrder', { order_id: id }, c.token)))
              stats.spotCancel += 1;
          }
        } else if (roll < 0.55) {
          // A small market order: buy ~10 USDT, or sell some of what an earlier buy brought.
          const balance = await api.web<{ base_available: string }>(
            'GET',
            'getSpotBalance',
            { symbol: m.symbol },
            c.token,
          );
          const depth = await api.web<{ asks: string[][] }>(
            'GET',
            'getDepth',
            { symbol: m.symbol, limit: '1' },
            c.token,
          );
          const ask = depth.ok ? depth.body.data?.asks?.[0]?.[0] : undefined;
          if (ask && balance.ok && balance.body.code === 1) {
            const quantity = quantityFor('10', ask, m.lot_size);
            const held = balance.body.data.base_available;
            const side = atMost(quantity, held) && Math.random() < 0.5 ? 'sell' : 'buy';
            const r = await api.web<{ status: string }>(
              'POST',
              'createOrder',
              { symbol: m.symbol, side, type: 'market', quantity },
              c.token,
            );
            if (note('createOrder market', r) && r.ok) {
              stats.spotMarket += 1;
              byBook[c.book].spot += 1;
              if (r.body.data.status === 'filled') stats.spotMarketFilled += 1;
            }
          }
        } else if (roll < 0.8 && affordable.length > 0) {
          if (positions.length >= 2 || (positions.length > 0 && Math.random() < 0.4)) {
            const id = positions.shift() as string;
            if (note('closeContract', await api.web('POST', 'closeContract', { position_id: id }, c.token))) {
              stats.contractsClosed += 1;
              byBook[c.book].closed += 1;
            }
          } else {
            const k = pick(affordable);
            const r = await api.web<{ position: { position_id: string } | null }>(
              'POST',
              'openContract',
              {
                symbol: k.symbol,
                side: Math.random() < 0.5 ? 'buy' : 'sell',
                type: 'market',
                lots: k.lots,
                leverage: k.leverage,
              },
              c.token,
            );
            if (note('openContract', r) && r.ok && r.body.data.position) {
              positions.push(r.body.data.position.position_id);
              stats.contractsOpened += 1;
              byBook[c.book].opened += 1;
            }
          }
        } else if (optionSymbols.length > 0) {
          const o = pick(optionSymbols);
          const duration = String(Math.min(...o.durations.map((d) => d.seconds)));
          const r = await api.web(
            'POST',
            'buyOption',
            {
              symbol: o.symbol,
              direction: Math.random() < 0.5 ? 'up' : 'down',
              stake: o.min_stake,
              duration,
            },
            c.token,
          );
          if (note('buyOption', r)) {
            stats.options += 1;
            byBook[c.book].options += 1;
          }
        }
        await sleep(300 + Math.floor(Math.random() * 700));
      }
      // Close what is still open, so closing is exercised whatever the dice said.
      for (const id of positions) {
        if (note('closeContract', await api.web('POST', 'closeContract', { position_id: id }, c.token))) {
          stats.contractsClosed += 1;
          byBook[c.book].closed += 1;
        }
      }
    };
    say(`trading for ${options.minutes} min…`);
    await Promise.all([...customers.map((c) => trader(c)), sampler]);
    await sampleMarkets(true);
    const lastSample = await sampleMemory(server);
    if (lastSample) memorySamples.push(lastSample);
    const lowest = (list: Memory[]): Memory | null =>
      list.length === 0 ? null : list.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    const heapStart =
      memorySamples.length >= 2
        ? lowest(memorySamples.slice(0, Math.min(3, memorySamples.length - 1)))
        : null;
    const heapEnd = lowest(memorySamples.slice(Math.max(1, memorySamples.length - 3)));

    // ---- the end: ledger, stop, log
    const ledger = await ledgerVerify(pgUrl);
    await server.stop();
    const errorLines = logLinesAtLeast(server.options.logFile, 50);

    // ---- figures
    say('figures:');
    say(
      `  spot orders: ${stats.spotLimit} limit, ${stats.spotMarket} market (${stats.spotMarketFilled} filled), ${stats.spotCancel} cancels`,
    );
    say(
      `  contracts: ${stats.contractsOpened} opened, ${stats.contractsClosed} closed; options bought: ${stats.options}`,
    );
    say(`  by book: ${JSON.stringify(byBook)}`);
    say(
      `  refusals: ${stats.refusals.size === 0 ? 'none' : [...stats.refusals].map(([k, n]) => `${k} ×${n}`).join(', ')}`,
    );
    say(
      `  HTTP calls: ${api.calls}, without a definitive answer (no answer or 5xx): ${stats.noAnswer.length}`,
    );
    const moved = new Map<string, boolean>();
    for (const m of markets) {
      for (const book of ['real', 'demo'] as const) {
        const key = `${m.symbol} ${book}`;
        moved.set(key, (tops.get(key)?.size ?? 0) >= 2);
      }
    }
    const movedCount = [...moved.values()].filter(Boolean).length;
    say(
      `  markets moved: ${movedCount}/${moved.size} (market × book; distinct tops of book sampled every 5 s after the warm-up)`,
    );
    for (const [key, ok] of moved) {
      say(
        `    ${key}: ${tops.get(key)?.size ?? 0} distinct tops, ${lastPrices.get(key)?.size ?? 0} distinct last prices${ok ? '' : '  ← did not move'}`,
      );
    }
    say(`  error lines (pino level ≥ 50): ${errorLines.length}`);
    const byMsg = new Map<string, number>();
    for (const l of errorLines) byMsg.set(l.msg, (byMsg.get(l.msg) ?? 0) + 1);
    for (const [msg, n] of [...byMsg].slice(0, 10)) say(`    ×${n} ${msg.slice(0, 160)}`);
    const start = heapStart;
    say(
      `  memory (${start?.source ?? heapEnd?.source ?? 'n/a'}): after warm-up ${start ? mb(start.bytes) : '?'} MB, end ${heapEnd ? mb(heapEnd.bytes) : '?'} MB (each the lowest of 3 samples), peak ${mb(heapPeak)} MB`,
    );
    say(`  ledger:verify exit ${ledger.code}`);

    // ---- checks
    checks.check(
      'no error lines',
      errorLines.length === 0,
      `${errorLines.length} lines at pino level ≥ 50 in ${server.options.logFile}`,
    );
    for (const [key, ok] of moved) {
      checks.check(
        `market moved: ${key}`,
        ok,
        ok ? `${tops.get(key)?.size} distinct tops of book` : 'top of book never changed after the warm-up',
      );
    }
    if (start && heapEnd && start.source === heapEnd.source) {
      const bound = start.source === 'rss' ? RSS_GROWTH_BOUND_MB : HEAP_GROWTH_BOUND_MB;
      const growth = (heapEnd.bytes - start.bytes) / 1024 / 1024;
      checks.check(
        'memory growth bounded',
        growth < bound,
        `${start.source} ${mb(start.bytes)} → ${mb(heapEnd.bytes)} MB (growth ${growth.toFixed(1)} MB, bound < ${bound} MB)`,
      );
    } else {
      checks.check(
        'memory growth bounded',
        false,
        'memory could not be sampled (run longer than 2 minutes?)',
      );
    }
    checks.check(
      'ledger invariants (ledger:verify)',
      ledger.code === 0,
      ledger.code === 0 ? 'ok' : ledger.output.trim().slice(-800),
    );
    checks.check(
      'every call answered (no 5xx, no dropped connection)',
      stats.noAnswer.length === 0,
      stats.noAnswer.length === 0 ? `${api.calls} calls` : stats.noAnswer.slice(0, 5).join('; '),
    );
    for (const book of ['real', 'demo'] as const) {
      const b = byBook[book];
      checks.check(
        `customers traded on the ${book} book`,
        b.spot > 0 && b.opened > 0 && b.closed > 0 && b.options > 0,
        `spot ${b.spot}, contracts opened ${b.opened} / closed ${b.closed}, options ${b.options}`,
      );
    }
    exitCode = checks.print();
  } catch (error) {
    say(`soak could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    checks.check('soak ran', false, error instanceof Error ? error.message : String(error));
    checks.print();
    exitCode = 1;
  } finally {
    await server.stop();
    if (!options.keep) server.cleanup();
  }
  return exitCode;
}
