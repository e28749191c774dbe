import {
  MARKET_CHANNEL,
  WS_HEARTBEAT_INTERVAL_MS,
  WS_MAIN_TYPE,
  WS_RECONNECT_DELAY_MS,
  WS_SESSION_ENDED,
  type WsClientMessage,
  type WsHeartbeatAck,
  type WsSessionEnded,
} from '@bourse/protocol';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { WS_PATH } from '../config/app.ts';
import { sessionEndedElsewhere } from './api.ts';
import { type ChannelEvent, marketStore } from './marketStore.ts';
import { getToken, subscribeToken } from './session.ts';

/**
 * The market websocket (spec 7, packages/protocol ws.ts): opened at start-up on the same origin,
 * a heartbeat `{main_type: 1}` every 20 s. Channels are subscribed with `{main_type: 2, channel}`
 * and left with `{main_type: 3, channel}`; `tickers` is always on, others while a screen uses them.
 * A sequence gap re-subscribes the channel (the answer is a fresh snapshot). After a close it
 * reconnects after 1 s, then backs off (doubling, at most 30 s) while the server stays away, and
 * subscribes everything again on the new socket.
 *
 * Private channels (e.g. `spot_private:<uid>`) need the socket authenticated with
 * `{main_type: 4, token}`. `authenticate(token)` sends it at once and again on every new socket;
 * until the server answers (`{main_type: 4, uid}` or a refusal) no subscribe is sent, so a private
 * channel is never asked for before its identity is known. The server cannot forget an identity, so
 * `authenticate(null)` after a login replaces the socket with a fresh, anonymous one.
 *
 * When the session ends on the server (logout elsewhere, password change, staff, demo expiry) the
 * server pushes `{main_type: 4, event: "session_ended", code, reason}` and drops the private
 * channels; `onSessionEnded` then logs out locally as an HTTP 1000 / 2000 answer would.
 */
export const RECONNECT_MAX_MS = 30_000;

export function socketUrl(location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WS_PATH}`;
}

/** The delay before reconnect attempt `attempt` (0 = first): 1 s, 2 s, 4 s … 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(WS_RECONNECT_DELAY_MS * 2 ** Math.min(attempt, 10), RECONNECT_MAX_MS);
}

/** The uid the socket is authenticated as (from the server's answer); null when anonymous. */
let socketUid: string | null = null;
const uidListeners = new Set<() => void>();

function setSocketUid(uid: string | null): void {
  if (socketUid === uid) return;
  socketUid = uid;
  for (const listener of uidListeners) listener();
}

export function getSocketUid(): string | null {
  return socketUid;
}

function subscribeSocketUid(listener: () => void): () => void {
  uidListeners.add(listener);
  return () => uidListeners.delete(listener);
}

/** The uid the market socket is authenticated as; null until the server confirmed a token. */
export function useSocketUid(): string | null {
  return useSyncExternalStore(subscribeSocketUid, getSocketUid, getSocketUid);
}

function isHeartbeatAck(value: unknown): value is WsHeartbeatAck {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as WsHeartbeatAck).main_type === WS_MAIN_TYPE.HEARTBEAT &&
    'pong' in value
  );
}

function isSessionEnded(value: unknown): value is WsSessionEnded {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as WsSessionEnded).main_type === WS_MAIN_TYPE.AUTH &&
    (value as WsSessionEnded).event === WS_SESSION_ENDED &&
    Array.isArray((value as WsSessionEnded).channels)
  );
}

type SocketLike = {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
};

export type SocketOptions = {
  url?: string;
  /** Tests pass a fake. */
  createSocket?: (url: string) => SocketLike;
  openState?: number;
  /** The server said the socket's session ended (the app logs out as for an HTTP 1000 / 2000). */
  onSessionEnded?: (message: WsSessionEnded) => void;
};

export type MarketSocket = {
  /** Subscribes while the returned function is not called (counted: two users, one subscription). */
  subscribe(channel: string): () => void;
  /** The customer's token for private channels (sent now and after every reconnect); null: anonymous. */
  authenticate(token: string | null): void;
  stop(): void;
};

export function createMarketSocket(options: SocketOptions = {}): MarketSocket {
  const open = options.openState ?? WebSocket.OPEN;
  const create = options.createSocket ?? ((url: string) => new WebSocket(url));
  const users = new Map<string, number>([[MARKET_CHANNEL.tickers, 1]]);
  /** Channels subscribed on the current socket. */
  const sent = new Set<string>();
  let socket: SocketLike | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;
  let token: string | null = null;
  /** Authentications sent on the current socket and not answered yet: subscribes wait for them. */
  let authPending = 0;

  const send = (message: WsClientMessage) => {
    if (socket?.readyState === open) socket.send(JSON.stringify(message));
  };
  const sendSubscribe = (channel: string) => {
    if (socket?.readyState !== open || authPending > 0) return;
    sent.add(channel);
    send({ main_type: WS_MAIN_TYPE.SUBSCRIBE, channel });
  };
  const flushSubscribes = () => {
    for (const channel of users.keys()) if (!sent.has(channel)) sendSubscribe(channel);
  };
  const sendAuth = (value: string) => {
    send({ main_type: WS_MAIN_TYPE.AUTH, token: value });
    authPending += 1;
  };

  const connect = () => {
    marketStore.setStatus('connecting');
    const current = create(options.url ?? socketUrl());
    socket = current;
    sent.clear();
    authPending = 0;
    current.addEventListener('open', () => {
      if (socket !== current) return;
      attempt = 0;
      marketStore.resetChannels();
      marketStore.setStatus('open');
      send({ main_type: WS_MAIN_TYPE.HEARTBEAT, timestamp: Date.now() });
      heartbeat = setInterval(
        () => send({ main_type: WS_MAIN_TYPE.HEARTBEAT, timestamp: Date.now() }),
        WS_HEARTBEAT_INTERVAL_MS,
      );
      if (token) sendAuth(token);
      flushSubscribes();
    });
    current.addEventListener('message', (event) => {
      if (socket !== current || typeof event.data !== 'string') return;
      let message: unknown;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        console.error('[ws] a message was not JSON', error);
        return;
      }
      if (isHeartbeatAck(message)) {
        if (typeof message.server_time === 'number') marketStore.setServerTime(message.server_time);
        return;
      }
      const reason = (message as { reason?: unknown }).reason;
      if (isSessionEnded(message)) {
        // Not an answer to an authentication: the server dropped the private channels by itself.
        for (const channel of message.channels) sent.delete(channel);
        setSocketUid(null);
        options.onSessionEnded?.(message);
        return;
      }
      if ((message as { main_type?: unknown }).main_type === WS_MAIN_TYPE.AUTH) {
        const uid = (message as { uid?: unknown }).uid;
        if (typeof uid === 'string') setSocketUid(uid);
        else {
          console.warn('[ws] not authenticated', reason);
          setSocketUid(null);
        }
        authPending = Math.max(0, authPending - 1);
        if (authPending === 0) flushSubscribes();
        return;
      }
      if (typeof reason === 'string') {
        console.warn('[ws] subscribe refused', message);
        return;
      }
      const result = marketStore.ingest(message);
      if (result === 'gap') {
        const channel = (message as { channel: string }).channel;
        if (users.has(channel)) send({ main_type: WS_MAIN_TYPE.SUBSCRIBE, channel });
      }
    });
    current.addEventListener('close', () => {
      // A socket replaced on purpose (logout) closes without scheduling anything.
      if (socket !== current) return;
      clearInterval(heartbeat);
      socket = null;
      marketStore.setStatus('closed');
      if (stopped) return;
      reconnect = setTimeout(connect, reconnectDelay(attempt));
      attempt += 1;
    });
    current.addEventListener('error', () => {
      // A close event always follows and schedules the reconnect; the browser already logs the cause.
      if (socket === current) marketStore.setStatus('closed');
    });
  };

  /** A fresh socket now (the old one is dropped without a reconnect of its own). */
  const replace = () => {
    const old = socket;
    socket = null;
    clearInterval(heartbeat);
    clearTimeout(reconnect);
    old?.close();
    attempt = 0;
    connect();
  };

  connect();
  return {
    subscribe(channel) {
      const count = users.get(channel) ?? 0;
      users.set(channel, count + 1);
      if (count === 0) sendSubscribe(channel);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (users.get(channel) ?? 1) - 1;
        if (left > 0) users.set(channel, left);
        else {
          users.delete(channel);
          if (sent.delete(channel)) send({ main_type: WS_MAIN_TYPE.UNSUBSCRIBE, channel });
        }
      };
    },
    authenticate(next) {
      if (next === token) return;
      const previous = token;
      token = next;
      if (next === null) {
        setSocketUid(null);
        // The server keeps an identity for the socket's life: only a new socket is anonymous.
        if (previous !== null && socket && !stopped) replace();
        return;
      }
      if (socket?.readyState === open) sendAuth(next);
    },
    stop() {
      stopped = true;
      clearTimeout(reconnect);
      clearInterval(heartbeat);
      socket?.close();
    },
  };
}

let shared: MarketSocket | null = null;

/** Starts the app's one socket; the returned function stops it for good (no reconnect). */
export function startMarketSocket(): () => void {
  shared ??= createMarketSocket({ onSessionEnded: sessionEndedElsewhere });
  const current = shared;
  // The session token drives the socket's identity: login authenticates it, logout makes it anonymous.
  current.authenticate(getToken());
  const unwatch = subscribeToken(() => current.authenticate(getToken()));
  return () => {
    unwatch();
    current.stop();
    if (shared === current) shared = null;
  };
}

/**
 * Subscribes to `channel` while the component is mounted and hands it every snapshot and message
 * (already checked for order by the store). `channel` null subscribes to nothing.
 */
export function useChannel(channel: string | null, onEvent: (event: ChannelEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (!channel || !shared) return;
    const off = marketStore.onChannel(channel, (event) => handler.current(event));
    const leave = shared.subscribe(channel);
    return () => {
      leave();
      off();
    };
  }, [channel]);
}
