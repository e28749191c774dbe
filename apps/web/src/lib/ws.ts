import {
  WS_HEARTBEAT_INTERVAL_MS,
  WS_MAIN_TYPE,
  WS_RECONNECT_DELAY_MS,
  type WsChannelMessage,
  type WsHeartbeat,
  type WsHeartbeatAck,
} from '@bourse/protocol';
import { WS_PATH } from '../config/app.ts';
import { marketStore } from './marketStore.ts';

/**
 * The market websocket (spec 7): opened at start-up on the same origin, a heartbeat every 20 s,
 * reconnect 1 s after any close. Channel messages go to the market store.
 */
export function socketUrl(location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${WS_PATH}`;
}

function isChannelMessage(value: unknown): value is WsChannelMessage {
  return (
    typeof value === 'object' && value !== null && typeof (value as WsChannelMessage).channel === 'string'
  );
}

function isHeartbeatAck(value: unknown): value is WsHeartbeatAck {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as WsHeartbeatAck).main_type === WS_MAIN_TYPE.HEARTBEAT &&
    'pong' in value
  );
}

/** Starts the socket; the returned function stops it for good (no reconnect). */
export function startMarketSocket(): () => void {
  let socket: WebSocket | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const sendHeartbeat = () => {
    if (socket?.readyState !== WebSocket.OPEN) return;
    const message: WsHeartbeat = { main_type: WS_MAIN_TYPE.HEARTBEAT, timestamp: Date.now() };
    socket.send(JSON.stringify(message));
  };

  const connect = () => {
    marketStore.setStatus('connecting');
    const current = new WebSocket(socketUrl());
    socket = current;
    current.addEventListener('open', () => {
      marketStore.setStatus('open');
      sendHeartbeat();
      heartbeat = setInterval(sendHeartbeat, WS_HEARTBEAT_INTERVAL_MS);
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
      if (isChannelMessage(message)) marketStore.ingest(message);
      else if (isHeartbeatAck(message) && typeof message.server_time === 'number') {
        marketStore.setServerTime(message.server_time);
      }
    });
    current.addEventListener('close', () => {
      clearInterval(heartbeat);
      if (socket === current) socket = null;
      marketStore.setStatus('closed');
      if (!stopped) reconnect = setTimeout(connect, WS_RECONNECT_DELAY_MS);
    });
    current.addEventListener('error', () => {
      // A close event always follows and schedules the reconnect; the browser already logs the cause.
      marketStore.setStatus('closed');
    });
  };

  connect();
  return () => {
    stopped = true;
    clearTimeout(reconnect);
    clearInterval(heartbeat);
    socket?.close();
  };
}
