import { createHmac } from 'node:crypto';
import http from 'node:http';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/**
 * The load generator of bench/spot-tcp.ts, run in a worker thread so that the clients' own work
 * (building requests, parsing answers) does not share the server's event loop. Each job runs
 * `concurrency` clients for a time budget over real HTTP/1.1 keep-alive connections to the server
 * on 127.0.0.1 (a `node:http` Agent with one socket per client), and answers with its figures.
 * Imported on the main thread (as `npm run bench` imports every file here) it does nothing.
 */

/** A book of the several-books phase: its reference price and an order size of about 100 USDT. */
export type BenchBook = { symbol: string; mid: number; quantity: string };

export type ClientsData = {
  role: 'spot-tcp-clients';
  port: number;
  tokens: string[];
  /** BTC/USDT's reference price (whole USDT), for the one-book phases. */
  mid: number;
  /** The books of `placeBooks` and `placeBooksApart`: client c places on books[c % books.length]. */
  books: BenchBook[];
  /** Real customers' trade API keys, for `placeBot` (signed `/api/v3/order` on BTC/USDT's real book). */
  bots: Array<{ apiKey: string; secret: string }>;
};

export type JobKind =
  | 'floor'
  | 'baseline'
  | 'baselineRtoken'
  | 'place'
  | 'placeBot'
  | 'placeBooks'
  | 'placeBooksApart'
  | 'prefill'
  | 'cancel'
  | 'mixed';
export type Job = { kind: JobKind; concurrency: number; budgetMs: number };

export type JobResult = {
  kind: JobKind;
  concurrency: number;
  seconds: number;
  /** Requests answered (any status), with their latencies as the client saw them. */
  answered: number;
  /** `code: 1` answers. */
  ok: number;
  /** Orders that traded on arrival (place and the mixed workload's places). */
  crossed: number;
  /** HTTP 429 SPOT_BUSY: a book's queue was full (correct behaviour under overload). */
  busy: number;
  /** Other refusals (e.g. a cancel that came after the order filled), by reason. */
  refused: Record<string, number>;
  /** Network errors and 5xx answers (a 500 is a bug). */
  errors: number;
  /** The mixed workload: requests sent of each kind. */
  mix: { place: number; cancel: number; query: number };
  p50: number;
  p99: number;
  max: number;
};

type Answer = {
  status: number;
  body: {
    code?: number;
    reason?: string;
    data?: Record<string, unknown>;
    orderId?: number;
    executedQty?: string;
  };
};

const SYMBOL = 'BTC/USDT';
const QUANTITY = '0.001';

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}

function startClients(data: ClientsData): void {
  const { port, tokens, mid, books, bots } = data;
  let n = 0;
  /** Resting orders placed by `prefill` (and by the mixed workload's places), to cancel by id. */
  let resting: { token: string; id: string }[] = [];

  function send(
    agent: http.Agent,
    method: 'GET' | 'POST',
    path: string,
    token: string,
    form?: object,
    signWith?: { apiKey: string; secret: string },
  ) {
    return new Promise<Answer>((resolve, reject) => {
      let payload = form ? new URLSearchParams(form as Record<string, string>).toString() : undefined;
      const headers: http.OutgoingHttpHeaders = signWith ? { 'x-mbx-apikey': signWith.apiKey } : { token };
      // A signed Binance-style call: HMAC-SHA256 of the whole form with the key's secret.
      if (signWith && payload !== undefined)
        payload = `${payload}&signature=${createHmac('sha256', signWith.secret).update(payload).digest('hex')}`;
      if (payload !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        headers['content-length'] = Buffer.byteLength(payload);
      }
      const request = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) });
          } catch (error) {
            reject(error);
          }
        });
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(payload);
    });
  }

  function rtoken(): string {
    n += 1;
    return `t${n.toString(36).padStart(7, '0')}`;
  }

  /** A limit order around the reference price; sides alternate so that about half cross. */
  function crossingOrder(): { side: string; price: string } {
    const side = n % 2 === 0 ? 'buy' : 'sell';
    return { side, price: String(mid + ((n * 7) % 21) - 10) };
  }

  /** `crossingOrder` on another book: within ±0.1 % of its reference price, two decimals (its tick). */
  function crossingOrderOn(book: BenchBook): { side: string; price: string } {
    const side = n % 2 === 0 ? 'buy' : 'sell';
    return { side, price: (book.mid * (1 + (((n * 7) % 21) - 10) / 10_000)).toFixed(2) };
  }

  /** A limit order well away from the crossing zone (±100–149 from the reference): it rests. */
  function restingOrder(): { side: string; price: string } {
    const side = n % 2 === 0 ? 'buy' : 'sell';
    const away = 100 + (n % 50);
    return { side, price: String(side === 'buy' ? mid - away : mid + away) };
  }

  async function runJob(job: Job): Promise<JobResult> {
    const agent = new http.Agent({
      keepAlive: true,
      maxSockets: job.concurrency,
      maxFreeSockets: job.concurrency,
    });
    const latencies: number[] = [];
    const result: JobResult = {
      kind: job.kind,
      concurrency: job.concurrency,
      seconds: 0,
      answered: 0,
      ok: 0,
      crossed: 0,
      busy: 0,
      refused: {},
      errors: 0,
      mix: { place: 0, cancel: 0, query: 0 },
      p50: 0,
      p99: 0,
      max: 0,
    };
    if (job.kind === 'prefill') resting = [];
    if (job.kind === 'mixed') resting = [];

    const timed = async (call: () => Promise<Answer>): Promise<Answer | null> => {
      const t0 = performance.now();
      try {
        const answer = await call();
        latencies.push(performance.now() - t0);
        result.answered += 1;
        if (answer.status >= 500) result.errors += 1;
        else if (answer.body.code === 1 || (answer.status === 200 && answer.body.orderId !== undefined))
          result.ok += 1;
        else if (answer.body.reason === 'SPOT_BUSY' || answer.body.code === -1008) result.busy += 1;
        else {
          const reason = answer.body.reason ?? `http_${answer.status}`;
          result.refused[reason] = (result.refused[reason] ?? 0) + 1;
        }
        return answer;
      } catch {
        result.errors += 1;
        return null;
      }
    };

    const place = async (
      c: number,
      order: { side: string; price: string },
      keep: boolean,
      on: { symbol: string; quantity: string } = { symbol: SYMBOL, quantity: QUANTITY },
      token = tokens[(c + n) % tokens.length] as string,
    ) => {
      const answer = await timed(() =>
        send(agent, 'POST', '/api/web/createOrder', token, { rtoken: rtoken(), ...on, ...order }),
      );
      const data = answer?.body.code === 1 ? answer.body.data : undefined;
      if (!data) return;
      if (data.filled_quantity !== '0') result.crossed += 1;
      const open = data.status === 'unfilled' || data.status === 'partially_filled';
      if (keep && open) resting.push({ token, id: String(data.order_id) });
    };

    /** `place` as a bot sends it: a signed `/api/v3/order` with its own client order id. */
    const placeBot = async (c: number, order: { side: string; price: string }) => {
      const bot = bots[(c + n) % bots.length] as { apiKey: string; secret: string };
      const id = rtoken();
      const answer = await timed(() =>
        send(
          agent,
          'POST',
          '/api/v3/order',
          '',
          {
            symbol: 'BTCUSDT',
            side: order.side.toUpperCase(),
            type: 'LIMIT',
            timeInForce: 'GTC',
            quantity: QUANTITY,
            price: order.price,
            newClientOrderId: `bench${id}`,
            timestamp: String(Date.now()),
          },
          bot,
        ),
      );
      if (
        answer?.status === 200 &&
        answer.body.executedQty !== undefined &&
        Number(answer.body.executedQty) > 0
      )
        result.crossed += 1;
    };

    const cancel = async (target: { token: string; id: string }) => {
      await timed(() =>
        send(agent, 'POST', '/api/web/cancelOrder', target.token, { rtoken: rtoken(), order_id: target.id }),
      );
    };

    const query = async (c: number) => {
      const token = tokens[(c + n) % tokens.length] as string;
      n += 1;
      const path =
        n % 2 === 0
          ? `/api/web/getDepth?symbol=${encodeURIComponent(SYMBOL)}&limit=20`
          : `/api/web/getCurrentOrders?symbol=${encodeURIComponent(SYMBOL)}&page_size=20`;
      await timed(() => send(agent, 'GET', path, token));
    };

    const started = performance.now();
    const deadline = started + job.budgetMs;
    const client = async (c: number) => {
      while (performance.now() < deadline) {
        switch (job.kind) {
          case 'floor': {
            // The same token header as the other phases; the route does not look it up.
            const token = tokens[(c + n) % tokens.length] as string;
            await timed(() => send(agent, 'POST', '/bench/floor', token, { note: rtoken() }));
            break;
          }
          case 'baseline': {
            const token = tokens[(c + n) % tokens.length] as string;
            await timed(() => send(agent, 'POST', '/bench/baseline', token, { note: rtoken() }));
            break;
          }
          case 'baselineRtoken': {
            const token = tokens[(c + n) % tokens.length] as string;
            const key = rtoken();
            await timed(() =>
              send(agent, 'POST', '/bench/baseline-rtoken', token, { note: key, rtoken: key }),
            );
            break;
          }
          case 'place':
            await place(c, crossingOrder(), false);
            break;
          case 'placeBot':
            await placeBot(c, crossingOrder());
            break;
          case 'placeBooks':
          case 'placeBooksApart': {
            const b = c % books.length;
            const book = books[b] as BenchBook;
            // Apart: book b's orders come from its own tenth of the customers (b, b + 4, b + 8, …).
            const perBook = Math.floor(tokens.length / books.length);
            const token =
              job.kind === 'placeBooksApart'
                ? (tokens[b + books.length * ((c + n) % perBook)] as string)
                : (tokens[(c + n) % tokens.length] as string);
            await place(
              c,
              crossingOrderOn(book),
              false,
              { symbol: book.symbol, quantity: book.quantity },
              token,
            );
            break;
          }
          case 'prefill':
            await place(c, restingOrder(), true);
            break;
          case 'cancel': {
            const target = resting.pop();
            if (!target) return;
            await cancel(target);
            break;
          }
          case 'mixed': {
            // A bot's day: 60 % places around the price, 30 % cancels of its resting orders, 10 % reads.
            const roll = (n + c) % 10;
            const target = roll >= 6 && roll <= 8 ? resting.pop() : undefined;
            if (roll === 9) {
              result.mix.query += 1;
              await query(c);
            } else if (target) {
              result.mix.cancel += 1;
              await cancel(target);
            } else {
              result.mix.place += 1;
              await place(c, crossingOrder(), true);
            }
            break;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, (_, c) => client(c)));
    result.seconds = (performance.now() - started) / 1000;
    agent.destroy();
    latencies.sort((a, b) => a - b);
    result.p50 = percentile(latencies, 0.5);
    result.p99 = percentile(latencies, 0.99);
    result.max = latencies.at(-1) ?? Number.NaN;
    return result;
  }

  parentPort?.on('message', (job: Job) => {
    runJob(job).then(
      (result) => parentPort?.postMessage({ result }),
      (error: unknown) =>
        parentPort?.postMessage({ error: error instanceof Error ? error.stack : String(error) }),
    );
  });
}

if (!isMainThread && (workerData as ClientsData | null)?.role === 'spot-tcp-clients') {
  startClients(workerData as ClientsData);
}
