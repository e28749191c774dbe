import {
  MARKET_CHANNEL,
  WS_HEARTBEAT_INTERVAL_MS,
  WS_MAIN_TYPE,
  WS_RECONNECT_DELAY_MS,
  type WsClientMessage,
  type WsHeartbeatAck,
} from '@bourse/protocol';
import { useEffect, useRef } from 'react';
import { WS_PATH } from '../config/app.ts';
import { type ChannelEvent, marketStore } from './marketStore.ts';

/**
 * The market websocket (spec 7, packages/protocol ws.ts): opened at start-up on the same origin,
 * a heartbeat `{main_type: 1}` every 20 s. Channels are subscribed with `{main_type: 2, channel}`
 * and left with `{main_type: 3, channel}`; `tickers` is always on, others while a screen uses them.
 * A sequence gap re-subscribes the channel (the answer is a fresh snapshot). After a close it
 * reconnects after 1 s, then backs off (doubling, at most 30 s) while the server stays away, and
 * subscribes everything again on the new socket.
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

function isHeartbeatAck(value: unknown): value is WsHeartbeatAck {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as WsHeartbeatAck).main_type === WS_MAIN_TYPE.HEARTBEAT &&
    'pong' in value
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
};

export type MarketSocket = {
  /** Subscribes while the returned function is not called (counted: two users, one subscription). */
  subscribe(channel: string): () => void;
  stop(): void;
};

export function createMarketSocket(options: SocketOptions = {}): MarketSocket {
  const open = options.openState ?? WebSocket.OPEN;
  const create = options.createSocket ?? ((url: string) => new WebSocket(url));
  const users = new Map<string, number>([[MARKET_CHANNEL.tickers, 1]]);
  let socket: SocketLike | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  const send = (message: WsClientMessage) => {
    if (socket?.readyState === open) socket.send(JSON.stringify(message));
  };
  const sendSubscribe = (channel: string) => send({ main_type: WS_MAIN_TYPE.SUBSCRIBE, channel });

  const connect = () => {
    marketStore.setStatus('connecting');
    const current = create(options.url ?? socketUrl());
    socket = current;
    current.addEventListener('open', () => {
      attempt = 0;
      marketStore.resetChannels();
      marketStore.setStatus('open');
      send({ main_type: WS_MAIN_TYPE.HEARTBEAT, timestamp: Date.now() });
      heartbeat = setInterval(
        () => send({ main_type: WS_MAIN_TYPE.HEARTBEAT, timestamp: Date.now() }),
        WS_HEARTBEAT_INTERVAL_MS,
      );
      for (const channel of users.keys()) sendSubscribe(channel);
    });
    current.addEventListener('message', (event) => {
      if (typeof event.data !== 'string') return;
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
      if (typeof reason === 'string') {
        console.warn('[ws] subscribe refused', message);
        return;
      }
      const result = marketStore.ingest(message);
      if (result === 'gap') {
        const channel = (message as { channel: string }).channel;
        if (users.has(channel)) sendSubscribe(channel);
      }
    });
    current.addEventListener('close', () => {
      clearInterval(heartbeat);
      if (socket === current) socket = null;
      marketStore.setStatus('closed');
      if (stopped) return;
      reconnect = setTimeout(connect, reconnectDelay(attempt));
      attempt += 1;
    });
    current.addEventListener('error', () => {
      // A close event always follows and schedules the reconnect; the browser already logs the cause.
      marketStore.setStatus('closed');
    });
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
          send({ main_type: WS_MAIN_TYPE.UNSUBSCRIBE, channel });
        }
      };
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
  shared ??= createMarketSocket();
  const current = shared;
  return () => {
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
