import {
  WS_IDLE_TIMEOUT_MS,
  WS_MAIN_TYPE,
  WS_SESSION_ENDED,
  type WsSessionEnded,
  type WsSessionEndReason,
} from '@bourse/protocol';
// The plugins' types (a route's `websocket: true` and `schema.hide`, the socket handler) wherever this file is compiled.
import type {} from '@fastify/swagger';
import type {} from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Clock } from '../lib/clock.ts';
import { ChannelRegistry, type Subscriber } from './registry.ts';

export { type ChannelProvider, type ChannelRefusal, ChannelRegistry, type Subscriber } from './registry.ts';

/** Bounded: a client that cannot keep up is dropped rather than buffered without limit. */
export const WS_LIMITS = {
  maxMessageBytes: 4096,
  /** A socket's send queue (ws buffer plus kernel buffer); past it the client is dropped as too slow. */
  maxBufferedBytes: 4 << 20,
  sweepIntervalMs: 5_000,
  /** Authenticated sockets' sessions are re-checked this often (at most 5 s: the promise in docs/api.md). */
  sessionCheckIntervalMs: 4_000,
} as const;

export type SocketIdentity = { customerId: string; uid: string; sessionId: string };

type Client = Subscriber & { socket: WebSocket; lastSeenMs: number };

export type WsHub = {
  clients(): number;
  /** Clients dropped because their queue passed WS_LIMITS.maxBufferedBytes. */
  dropped(): number;
  registry: ChannelRegistry;
  close(): void;
  /** Called after a socket authenticated (modules warm what private snapshots need). */
  onAuthenticated(listener: (identity: SocketIdentity) => unknown): void;
  /**
   * Re-checks the sessions of this customer's sockets now (called when sessions ended in this
   * process); the periodic check catches the rest (expiry, other processes).
   */
  sessionsEnded(customerId: string): Promise<void>;
  /** Re-checks every authenticated socket's session now (what the periodic check runs). */
  checkSessions(): Promise<void>;
};

function channelOf(message: Record<string, unknown>): string | null {
  const channel = message.channel;
  return typeof channel === 'string' && channel.length > 0 && channel.length <= 128 ? channel : null;
}

/**
 * `/ws`: heartbeats (main_type 1) and channel subscriptions (2 subscribe, 3 unsubscribe) — see
 * docs/api.md. A client silent for 60 s is dropped; so is one whose queue passes the limit.
 */
export function registerWebsocket(
  app: FastifyInstance,
  deps: {
    clock: Clock;
    idleTimeoutMs?: number;
    registry?: ChannelRegistry;
    maxBufferedBytes?: number;
    /** Resolves a customer token for `{main_type: 4, token}`; null when it is not a valid session. */
    authenticate?: (token: string) => Promise<SocketIdentity | null>;
    /** Session id → why it ended, for those of `sessionIds` that no longer hold. */
    endedSessions?: (sessionIds: string[]) => Promise<Map<string, WsSessionEndReason>>;
    sessionCheckIntervalMs?: number;
  },
): WsHub {
  const clients = new Set<Client>();
  let onAuthenticated: ((identity: SocketIdentity) => unknown) | null = null;
  const idleMs = deps.idleTimeoutMs ?? WS_IDLE_TIMEOUT_MS;
  const registry = deps.registry ?? new ChannelRegistry();
  const maxBuffered = deps.maxBufferedBytes ?? WS_LIMITS.maxBufferedBytes;
  let dropped = 0;

  /** The session behind the socket ended: it is anonymous again, leaves its private channels, and is told. */
  function endSession(client: Client, reason: WsSessionEndReason): void {
    if (!client.identity) return;
    client.identity = null;
    const channels = registry.recheck(client);
    if (client.socket.readyState !== client.socket.OPEN) return;
    const message: WsSessionEnded = {
      main_type: WS_MAIN_TYPE.AUTH,
      event: WS_SESSION_ENDED,
      code: reason === 'SESSION_PASSWORD_CHANGED' ? 2000 : 1000,
      reason,
      params: {},
      channels,
    };
    client.socket.send(JSON.stringify(message));
  }

  /** One query for the sessions of all (or one customer's) authenticated sockets. */
  async function revalidate(customerId?: string): Promise<void> {
    if (!deps.endedSessions) return;
    const bySession = new Map<string, Client[]>();
    for (const client of clients) {
      const identity = client.identity;
      if (!identity?.sessionId) continue;
      if (customerId !== undefined && identity.customerId !== customerId) continue;
      const list = bySession.get(identity.sessionId);
      if (list) list.push(client);
      else bySession.set(identity.sessionId, [client]);
    }
    if (bySession.size === 0) return;
    const ended = await deps.endedSessions([...bySession.keys()]);
    for (const [sessionId, reason] of ended) {
      for (const client of bySession.get(sessionId) ?? []) {
        // The socket may have authenticated again meanwhile: only its current session counts.
        if (client.identity?.sessionId === sessionId) endSession(client, reason);
      }
    }
  }

  let closed = false;
  const checkFailed = (error: unknown) => {
    if (!closed) app.log.warn({ err: error }, 'websocket session check failed');
  };

  function drop(client: Client): void {
    if (!clients.delete(client)) return;
    registry.remove(client);
    client.socket.terminate();
  }

  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket) => {
    const client: Client = {
      socket,
      lastSeenMs: deps.clock.now().getTime(),
      channels: new Set(),
      send(frame) {
        if (socket.readyState !== socket.OPEN) return false;
        if (socket.bufferedAmount + frame.length > maxBuffered) {
          dropped += 1;
          drop(client);
          return false;
        }
        socket.send(frame, { binary: false });
        return true;
      },
    };
    clients.add(client);
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      client.lastSeenMs = deps.clock.now().getTime();
      if (isBinary || raw.length > WS_LIMITS.maxMessageBytes) return socket.close(1009, 'message too large');
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(raw.toString('utf8'));
      } catch {
        return socket.close(1007, 'invalid json');
      }
      if (typeof message !== 'object' || message === null) return socket.close(1007, 'invalid json');
      if (message.main_type === WS_MAIN_TYPE.HEARTBEAT) {
        const pong = typeof message.timestamp === 'number' ? message.timestamp : 0;
        socket.send(JSON.stringify({ main_type: 1, pong, server_time: deps.clock.now().getTime() }));
        return;
      }
      if (message.main_type === WS_MAIN_TYPE.AUTH) {
        const token = typeof message.token === 'string' && message.token.length <= 256 ? message.token : '';
        const refuse = () =>
          socket.send(JSON.stringify({ main_type: 4, reason: 'LOGIN_REQUIRED', params: {} }));
        if (!token || !deps.authenticate) return refuse();
        deps.authenticate(token).then(
          (identity) => {
            // A new identity (or none) leaves the private channels the old one was allowed.
            const previous = client.identity;
            client.identity = identity;
            if (previous && previous.uid !== identity?.uid) registry.recheck(client);
            if (!identity) return refuse();
            void Promise.resolve(onAuthenticated?.(identity))
              .catch((error: unknown) =>
                // The socket is signed in all the same; its private channels answer on subscribe.
                app.log.error({ err: error }, 'websocket: an authenticated listener failed'),
              )
              .then(() => socket.send(JSON.stringify({ main_type: 4, uid: identity.uid })));
          },
          (error: unknown) => {
            // Expected refusals resolve to null above; a rejection here is a fault (the database).
            app.log.error({ err: error }, 'websocket authentication failed');
            refuse();
          },
        );
        return;
      }
      if (message.main_type === WS_MAIN_TYPE.SUBSCRIBE || message.main_type === WS_MAIN_TYPE.UNSUBSCRIBE) {
        const channel = channelOf(message);
        const mainType = message.main_type;
        if (!channel) {
          socket.send(
            JSON.stringify({
              main_type: mainType,
              channel: '',
              reason: 'BAD_INPUT',
              params: { field: 'channel' },
            }),
          );
          return;
        }
        if (mainType === WS_MAIN_TYPE.UNSUBSCRIBE) {
          registry.unsubscribe(client, channel);
          socket.send(JSON.stringify({ main_type: mainType, channel }));
          return;
        }
        const refusal = registry.subscribe(client, channel);
        if (refusal) socket.send(JSON.stringify({ main_type: mainType, channel, ...refusal }));
      }
    });
    const forget = () => {
      clients.delete(client);
      registry.remove(client);
    };
    socket.on('close', forget);
    socket.on('error', forget);
  });

  const sweep = setInterval(
    () => {
      const now = deps.clock.now().getTime();
      for (const client of clients) {
        if (now - client.lastSeenMs > idleMs || client.socket.bufferedAmount > maxBuffered) drop(client);
      }
    },
    Math.min(WS_LIMITS.sweepIntervalMs, idleMs),
  );
  sweep.unref();

  let checking: Promise<void> | null = null;
  const sessionCheck = setInterval(() => {
    if (checking) return;
    checking = revalidate()
      .catch(checkFailed)
      .finally(() => {
        checking = null;
      });
  }, deps.sessionCheckIntervalMs ?? WS_LIMITS.sessionCheckIntervalMs);
  sessionCheck.unref();

  return {
    clients: () => clients.size,
    dropped: () => dropped,
    registry,
    onAuthenticated(listener) {
      onAuthenticated = listener;
    },
    sessionsEnded: (customerId) => revalidate(customerId).catch(checkFailed),
    checkSessions: () => revalidate(),
    close() {
      closed = true;
      clearInterval(sweep);
      clearInterval(sessionCheck);
      for (const client of clients) {
        registry.remove(client);
        client.socket.close(1001, 'server shutting down');
      }
    },
  };
}
