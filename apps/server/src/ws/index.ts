import { WS_IDLE_TIMEOUT_MS, WS_MAIN_TYPE } from '@bourse/protocol';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Clock } from '../lib/clock.ts';

/** Bounded: a client that cannot keep up is dropped rather than buffered without limit. */
export const WS_LIMITS = {
  maxMessageBytes: 4096,
  maxBufferedBytes: 1 << 20,
  sweepIntervalMs: 5_000,
} as const;

type Client = { socket: WebSocket; lastSeenMs: number };

export type WsHub = { clients(): number; close(): void };

/**
 * `/ws`: heartbeats now; the channel registry (tickers, depth, trades, private updates) arrives
 * with the market-data issue. A client silent for 60 s is dropped.
 */
export function registerWebsocket(
  app: FastifyInstance,
  deps: { clock: Clock; idleTimeoutMs?: number },
): WsHub {
  const clients = new Set<Client>();
  const idleMs = deps.idleTimeoutMs ?? WS_IDLE_TIMEOUT_MS;

  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket) => {
    const client: Client = { socket, lastSeenMs: deps.clock.now().getTime() };
    clients.add(client);
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      client.lastSeenMs = deps.clock.now().getTime();
      if (isBinary || raw.length > WS_LIMITS.maxMessageBytes) return socket.close(1009, 'message too large');
      let message: { main_type?: unknown; timestamp?: unknown };
      try {
        message = JSON.parse(raw.toString('utf8'));
      } catch {
        return socket.close(1007, 'invalid json');
      }
      if (message.main_type === WS_MAIN_TYPE.HEARTBEAT) {
        const pong = typeof message.timestamp === 'number' ? message.timestamp : 0;
        socket.send(JSON.stringify({ main_type: 1, pong, server_time: deps.clock.now().getTime() }));
      }
    });
    socket.on('close', () => clients.delete(client));
    socket.on('error', () => clients.delete(client));
  });

  const sweep = setInterval(
    () => {
      const now = deps.clock.now().getTime();
      for (const client of clients) {
        if (now - client.lastSeenMs > idleMs || client.socket.bufferedAmount > WS_LIMITS.maxBufferedBytes) {
          client.socket.terminate();
          clients.delete(client);
        }
      }
    },
    Math.min(WS_LIMITS.sweepIntervalMs, idleMs),
  );
  sweep.unref();

  return {
    clients: () => clients.size,
    close() {
      clearInterval(sweep);
      for (const client of clients) client.socket.close(1001, 'server shutting down');
    },
  };
}
