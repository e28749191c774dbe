import { type ChildProcess, fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import pino from 'pino';
import WebSocket, { WebSocketServer } from 'ws';
import { manualClock } from '../apps/server/src/lib/clock.ts';
import { localBus } from '../apps/server/src/modules/market/bus.ts';
import { registerMarketChannels } from '../apps/server/src/modules/market/channels.ts';
import { MarketEngine } from '../apps/server/src/modules/market/engine.ts';
import { createSimFeed } from '../apps/server/src/modules/market/feeds/sim.ts';
import {
  fixtureInstruments,
  generatedCatalogueCsv,
} from '../apps/server/src/modules/market/fixtures/instruments.ts';
import type { Recorder } from '../apps/server/src/modules/market/recorder.ts';
import { MarketState } from '../apps/server/src/modules/market/state.ts';
import { ChannelRegistry, registerWebsocket, type Subscriber } from '../apps/server/src/ws/index.ts';
import type { BenchResult } from './run.ts';
import { percentile } from './support.ts';

/**
 * Ticker fan-out: 3,000 instruments' tickers to 1,000 local websocket clients on one process,
 * through the real pipeline (sim feed → batch → state → `tickers` channel → bounded per-socket
 * queues), against a plain `ws` broadcast of the very same pre-serialised messages in the same
 * run. The clients live in a child process, so the server's CPU figure is the server's alone.
 *
 * Phases: paced (one batch per 500 ms, as in production) for latency; burst (back to back) for
 * the most messages per second. Latency is from the moment a batch is formed (ours: before
 * applying and serialising it) or a broadcast starts (plain) to its arrival at each client.
 * Knobs: BENCH_FANOUT_CLIENTS (1000), BENCH_FANOUT_INSTRUMENTS (3000), BENCH_FANOUT_ROUNDS (12; the burst is half).
 */
const CLIENTS = Number.parseInt(process.env.BENCH_FANOUT_CLIENTS ?? '1000', 10);
const INSTRUMENTS = Number.parseInt(process.env.BENCH_FANOUT_INSTRUMENTS ?? '3000', 10);
const ROUNDS = Number.parseInt(process.env.BENCH_FANOUT_ROUNDS ?? '12', 10);
const BURST = Math.max(1, Math.floor(ROUNDS / 2));
const PACE_MS = 500;
const WARMUP_ROUNDS = 4;
const DEADLINE_MS = 55_000;

const wallMs = () => performance.timeOrigin + performance.now();

type ToChild =
  | { type: 'connect'; url: string; count: number; subscribe: boolean }
  | { type: 'collect'; seqs: number[]; timeoutMs: number }
  | { type: 'disconnect' };
type FromChild =
  | { type: 'connected'; clients: number }
  | { type: 'report'; arrivals: number[]; missing: number; closed: number; cpuMs: number }
  | { type: 'disconnected' };

// ---- Client role (child process) --------------------------------------------------------------

function clientRole(): void {
  let sockets: WebSocket[] = [];
  /** Per client: seq → arrival time. */
  let arrivals: Array<Map<number, number>> = [];
  let cpuStart = process.cpuUsage();
  const send = (message: FromChild) => process.send?.(message);

  process.on('message', async (message: ToChild) => {
    if (message.type === 'connect') {
      arrivals = [];
      const opened = Array.from({ length: message.count }, () => {
        const seen = new Map<number, number>();
        arrivals.push(seen);
        return new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(message.url, { perMessageDeflate: false });
          let snapshot = !message.subscribe;
          socket.on('message', (data: Buffer) => {
            const at = wallMs();
            const head = data.toString('latin1', 0, 80);
            const seq = /"seq":(\d+)/.exec(head)?.[1];
            if (head.includes('"snapshot":true')) {
              snapshot = true;
              resolve(socket);
              return;
            }
            if (seq !== undefined) seen.set(Number.parseInt(seq, 10), at);
          });
          socket.once('open', () => {
            if (message.subscribe) socket.send(JSON.stringify({ main_type: 2, channel: 'tickers' }));
            else if (snapshot) resolve(socket);
          });
          socket.once('error', reject);
        });
      });
      sockets = await Promise.all(opened);
      cpuStart = process.cpuUsage();
      send({ type: 'connected', clients: sockets.length });
    } else if (message.type === 'collect') {
      const until = Date.now() + message.timeoutMs;
      const complete = () => arrivals.every((seen) => message.seqs.every((s) => seen.has(s)));
      while (!complete() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      const flat: number[] = [];
      let missing = 0;
      for (const seen of arrivals) {
        for (const seq of message.seqs) {
          const at = seen.get(seq);
          if (at === undefined) missing += 1;
          else flat.push(seq, at);
        }
        seen.clear();
      }
      const cpu = process.cpuUsage(cpuStart);
      cpuStart = process.cpuUsage();
      const closed = sockets.filter((s) => s.readyState !== WebSocket.OPEN).length;
      send({ type: 'report', arrivals: flat, missing, closed, cpuMs: (cpu.user + cpu.system) / 1000 });
    } else if (message.type === 'disconnect') {
      for (const socket of sockets) socket.terminate();
      sockets = [];
      send({ type: 'disconnected' });
    }
  });
}

if (process.env.BENCH_FANOUT_ROLE === 'clients') clientRole();

// ---- Server role (this process) ---------------------------------------------------------------

function ask(child: ChildProcess, message: ToChild, expect: FromChild['type']): Promise<FromChild> {
  return new Promise((resolve) => {
    const onMessage = (reply: FromChild) => {
      if (reply.type !== expect) return;
      child.off('message', onMessage);
      resolve(reply);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

type PhaseResult = {
  msgsPerS: number;
  p50: number;
  p99: number;
  max: number;
  cpuPct: number;
  clientCpuPct: number;
  missing: number;
  closed: number;
  bytes: number;
};

async function measure(input: {
  child: ChildProcess;
  sends: number;
  paced: boolean;
  send: (round: number) => { seq: number; bytes: number };
}): Promise<PhaseResult> {
  const starts = new Map<number, number>();
  const cpu0 = process.cpuUsage();
  const t0 = wallMs();
  let bytes = 0;
  let sendMs = 0;
  for (let round = 0; round < input.sends; round++) {
    const due = t0 + round * PACE_MS;
    if (input.paced && wallMs() < due) await new Promise((r) => setTimeout(r, due - wallMs()));
    const start = wallMs();
    const { seq, bytes: size } = input.send(round);
    sendMs += wallMs() - start;
    starts.set(seq, start);
    bytes += size;
    await new Promise((r) => setImmediate(r));
  }
  const report = (await ask(
    input.child,
    { type: 'collect', seqs: [...starts.keys()], timeoutMs: 20_000 },
    'report',
  )) as Extract<FromChild, { type: 'report' }>;
  const cpu = process.cpuUsage(cpu0);
  if (process.env.BENCH_FANOUT_DEBUG) {
    process.stderr.write(`cpu user=${cpu.user / 1000} sys=${cpu.system / 1000} send=${sendMs.toFixed(0)}\n`);
  }
  const latencies: number[] = [];
  let last = t0;
  for (let i = 0; i < report.arrivals.length; i += 2) {
    const at = report.arrivals[i + 1] as number;
    latencies.push(at - (starts.get(report.arrivals[i] as number) as number));
    if (at > last) last = at;
  }
  latencies.sort((a, b) => a - b);
  const elapsedS = (last - t0) / 1000;
  return {
    msgsPerS: latencies.length / elapsedS,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    cpuPct: ((cpu.user + cpu.system) / 1000 / (elapsedS * 1000)) * 100,
    clientCpuPct: (report.cpuMs / (elapsedS * 1000)) * 100,
    missing: report.missing,
    closed: report.closed,
    bytes: bytes / input.sends,
  };
}

function figures(
  r: PhaseResult,
  extra: Record<string, string | number> = {},
): Record<string, string | number> {
  return {
    msgs_per_s: Math.round(r.msgsPerS),
    p50_ms: r.p50.toFixed(1),
    p99_ms: r.p99.toFixed(1),
    max_ms: r.max.toFixed(1),
    server_cpu_pct: r.cpuPct.toFixed(0),
    clients_cpu_pct: r.clientCpuPct.toFixed(0),
    kb_per_msg: (r.bytes / 1024).toFixed(0),
    undelivered: r.missing,
    dropped_clients: r.closed,
    ...extra,
  };
}

export async function run(): Promise<BenchResult[]> {
  const deadline = setTimeout(() => {
    process.stderr.write('fanout bench passed its 55 s budget\n');
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();

  // The real pipeline, without a database: state, channels, registry, hub, a sim feed.
  const clock = manualClock(new Date('2026-11-21T04:00:00Z'));
  const instruments = fixtureInstruments(generatedCatalogueCsv(INSTRUMENTS, 'crypto'));
  const state = new MarketState({ staleAfterMs: 30_000 });
  state.setCatalogue(instruments);
  const registry = new ChannelRegistry();
  const channels = registerMarketChannels(registry, state);
  const recorder: Recorder = {
    record() {},
    flush: async () => true,
    backlog: () => 0,
    close: async () => {},
  };
  const engine = new MarketEngine({
    state,
    channels,
    recorder,
    bus: localBus(),
    clock,
    log: pino({ level: 'silent' }),
    resync: async () => ({ batchSeq: 0 }),
  });
  const feed = createSimFeed({ seed: 'bench', intervalMs: PACE_MS });
  feed.setInstruments(instruments, () => null);
  engine.setFeeds([feed]);
  engine.becomeLeader({ batchMs: 0 });
  const app = Fastify({ logger: false });
  await app.register(websocket, { options: { maxPayload: 64 * 1024, perMessageDeflate: false } });
  const hub = registerWebsocket(app, { clock, registry });
  await app.listen({ host: '127.0.0.1', port: 0 });

  // A tap on the channel keeps the exact bytes ours sent, for the plain broadcast to resend.
  const frames: Buffer[] = [];
  const tap: Subscriber = {
    channels: new Set(),
    send(frame) {
      frames.push(frame);
      return true;
    },
  };
  registry.subscribe(tap, 'tickers');
  frames.length = 0;

  const child = fork(import.meta.filename, [], {
    env: { ...process.env, BENCH_FANOUT_ROLE: 'clients' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ours = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
    await ask(child, { type: 'connect', url: ours, count: CLIENTS, subscribe: true }, 'connected');
    const step = () => {
      clock.advance(PACE_MS);
      return feed.poll(clock.now().getTime());
    };
    // Ticks for each round are drawn before the clock starts: the figures are the fan-out's.
    const pollRounds = async (n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(await step());
      return out;
    };
    const oursSend = (rounds: Awaited<ReturnType<typeof pollRounds>>) => (round: number) => {
      const before = frames.length;
      engine.ingest(rounds[round] ?? []);
      engine.flushBatch();
      const frame = frames[before];
      if (!frame) throw new Error('no frame published');
      return { seq: registry.seq('tickers'), bytes: frame.length };
    };
    // Warm the pipeline (JIT) with a few batches nobody measures.
    // Delivered and collected like the others, so no backlog is left when the clock starts.
    await measure({
      child,
      sends: WARMUP_ROUNDS,
      paced: true,
      send: oursSend(await pollRounds(WARMUP_ROUNDS)),
    });
    frames.length = 0;
    const oursPaced = await measure({
      child,
      sends: ROUNDS,
      paced: true,
      send: oursSend(await pollRounds(ROUNDS)),
    });
    const pacedDropped = hub.dropped();
    const oursBurst = await measure({
      child,
      sends: BURST,
      paced: false,
      send: oursSend(await pollRounds(BURST)),
    });
    const burstDropped = hub.dropped() - pacedDropped;
    await ask(child, { type: 'disconnect' }, 'disconnected');

    // The plain broadcast: the same frames, every client, no channels, no queue limits.
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
    await new Promise((r) => wss.once('listening', r));
    const plain = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`;
    wss.on('connection', (socket) => socket.send('{"snapshot":true}'));
    await ask(child, { type: 'connect', url: plain, count: CLIENTS, subscribe: false }, 'connected');
    const plainSend = (offset: number) => (round: number) => {
      const frame = frames[offset + round] as Buffer;
      for (const client of wss.clients) client.send(frame, { binary: false });
      return {
        seq: Number.parseInt(/"seq":(\d+)/.exec(frame.toString('latin1', 0, 80))?.[1] ?? '0', 10),
        bytes: frame.length,
      };
    };
    const plainPaced = await measure({ child, sends: ROUNDS, paced: true, send: plainSend(0) });
    const plainBurst = await measure({ child, sends: BURST, paced: false, send: plainSend(ROUNDS) });
    await ask(child, { type: 'disconnect' }, 'disconnected');
    await new Promise((r) => wss.close(r));

    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    const shape = { clients: CLIENTS, instruments: INSTRUMENTS };
    return [
      {
        name: 'fanout paced 2/s: bourse hub',
        figures: figures(oursPaced, { ...shape, messages: ROUNDS, hub_dropped: pacedDropped }),
      },
      {
        name: 'fanout paced 2/s: plain ws broadcast',
        figures: figures(plainPaced, { ...shape, messages: ROUNDS }),
      },
      {
        name: 'fanout burst: bourse hub',
        figures: figures(oursBurst, { ...shape, messages: BURST, hub_dropped: burstDropped }),
      },
      {
        name: 'fanout burst: plain ws broadcast',
        figures: figures(plainBurst, { ...shape, messages: BURST }),
      },
      {
        name: 'fanout ratio bourse / plain',
        figures: {
          paced_p50: ratio(oursPaced.p50, plainPaced.p50),
          paced_p99: ratio(oursPaced.p99, plainPaced.p99),
          paced_server_cpu: ratio(oursPaced.cpuPct, plainPaced.cpuPct),
          burst_msgs_per_s: ratio(oursBurst.msgsPerS, plainBurst.msgsPerS),
          burst_p99: ratio(oursBurst.p99, plainBurst.p99),
        },
      },
    ];
  } finally {
    child.kill();
    hub.close();
    await app.close();
    await engine.close();
    clearTimeout(deadline);
  }
}
