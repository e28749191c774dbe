import type { MarketMakerHealthData } from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';

/**
 * `GET /healthz` (the database answers: `{status: "ok"}`, else 503), `GET /healthz?detail=1` (also the
 * process's memory and the market maker's health per market and book) and `GET /metrics`
 * (Prometheus text format 0.0.4, hand-written: process memory, the market maker, HTTP answers by
 * status class). Registered on the root instance, before the routes, so its response counter sees
 * every route.
 */
export function registerHealth(app: FastifyInstance, deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  let marketMaker: { health(): MarketMakerHealthData } | null = null;
  const byClass = new Map<string, number>();

  app.addHook('onResponse', async (_request, reply) => {
    const cls = `${Math.floor(reply.statusCode / 100)}xx`;
    byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
  });

  async function databaseOk(): Promise<boolean> {
    try {
      await db.selectNoFrom((eb) => eb.lit(1).as('one')).execute();
      return true;
    } catch (error) {
      // The answer is 503; the log says why (a warning: the probe works, the database does not).
      app.log.warn({ err: error }, 'health check: the database does not answer');
      return false;
    }
  }

  function mmHealth(): MarketMakerHealthData {
    return marketMaker?.health() ?? { enabled: false, markets: [] };
  }

  app.get('/healthz', { schema: { hide: true } }, async (request, reply) => {
    const up = await databaseOk();
    const status = up ? 'ok' : 'database unavailable';
    if ((request.query as { detail?: unknown } | undefined)?.detail !== '1') {
      return up ? { status } : reply.code(503).send({ status });
    }
    const memory = process.memoryUsage();
    return reply.code(up ? 200 : 503).send({
      status,
      process: {
        heap_used_bytes: memory.heapUsed,
        rss_bytes: memory.rss,
        uptime_s: Math.round(process.uptime()),
      },
      market_maker: mmHealth(),
    });
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const memory = process.memoryUsage();
    const mm = mmHealth();
    const now = clock.now().getTime();
    const out: string[] = [];
    const metric = (name: string, type: 'gauge' | 'counter', help: string, rows: [string, number][]) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
      for (const [labels, value] of rows) out.push(`${name}${labels} ${number(value)}`);
    };
    metric('process_heap_used_bytes', 'gauge', 'V8 heap in use.', [['', memory.heapUsed]]);
    metric('process_resident_memory_bytes', 'gauge', 'Resident set size.', [['', memory.rss]]);
    metric('process_uptime_seconds', 'gauge', 'Seconds since the process started.', [['', process.uptime()]]);
    metric('bourse_market_maker_enabled', 'gauge', '1 when the market maker runs.', [
      ['', mm.enabled ? 1 : 0],
    ]);
    const rows = (value: (m: MarketMakerHealthData['markets'][number]) => number): [string, number][] =>
      mm.markets.map((m) => [labels({ symbol: m.symbol, book: m.book }), value(m)]);
    metric(
      'bourse_market_maker_last_quote_age_seconds',
      'gauge',
      'Seconds since the market maker last confirmed its quotes (+Inf: never).',
      rows((m) =>
        m.last_quote_at === null ? Number.POSITIVE_INFINITY : (now - Date.parse(m.last_quote_at)) / 1000,
      ),
    );
    metric(
      'bourse_market_maker_errors_total',
      'counter',
      'Failed market-maker rounds since the process started.',
      rows((m) => m.errors_total),
    );
    metric(
      'bourse_market_maker_errors_last_hour',
      'gauge',
      'Failed market-maker rounds in the last hour.',
      rows((m) => m.errors_last_hour),
    );
    metric(
      'bourse_http_requests_total',
      'counter',
      'HTTP answers by status class.',
      [...byClass.entries()].sort().map(([cls, n]) => [labels({ status_class: cls }), n]),
    );
    return reply
      .header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
      .send(`${out.join('\n')}\n`);
  });

  return {
    /** The market maker exists later than these routes (it needs the spot module). */
    watch(mm: { health(): MarketMakerHealthData }): void {
      marketMaker = mm;
    },
  };
}

function number(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}

function labels(values: Record<string, string>): string {
  const escaped = Object.entries(values).map(
    ([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  );
  return `{${escaped.join(',')}}`;
}
