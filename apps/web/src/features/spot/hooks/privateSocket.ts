import {
  SPOT_CHANNELS,
  type SpotPrivateMessage,
  type SpotPrivateSnapshot,
  WS_HEARTBEAT_INTERVAL_MS,
  WS_MAIN_TYPE,
  WS_RECONNECT_DELAY_MS,
} from '@bourse/protocol';
import { useEffect, useRef, useState } from 'react';
import { getToken, useToken } from '../../../lib/session.ts';
import { socketUrl } from '../../../lib/ws.ts';

/**
 * The customer's private spot channel `spot_private:<uid>`: their own orders, fills and balances,
 * live. It needs an authenticated socket (`{main_type: 4, token}`), which the shared market socket
 * does not do, so this screen opens its own while it is shown: authenticate, subscribe, heartbeat
 * every 20 s, reconnect after 1 s (doubling to 30 s). A sequence gap resubscribes for a snapshot.
 */
export type PrivateEvent =
  | { kind: 'snapshot'; data: SpotPrivateSnapshot }
  | { kind: 'message'; data: SpotPrivateMessage };
export type PrivateStatus = 'off' | 'connecting' | 'live';

const RECONNECT_MAX_MS = 30_000;

export function useSpotPrivate(onEvent: (event: PrivateEvent) => void): PrivateStatus {
  const token = useToken();
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [status, setStatus] = useState<PrivateStatus>('off');

  useEffect(() => {
    if (!token || typeof WebSocket === 'undefined') {
      setStatus('off');
      return;
    }
    let socket: WebSocket | null = null;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let reconnect: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;
    let channel: string | null = null;
    let lastSeq: number | null = null;

    const send = (message: unknown) => {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    const connect = () => {
      setStatus('connecting');
      const current = new WebSocket(socketUrl());
      socket = current;
      current.addEventListener('open', () => {
        attempt = 0;
        lastSeq = null;
        send({ main_type: WS_MAIN_TYPE.HEARTBEAT, timestamp: Date.now() });
        heartbeat = setInterval(
          () => send({ main_type: WS_MAIN_TYPE.HEARTBEAT, timestamp: Date.now() }),
          WS_HEARTBEAT_INTERVAL_MS,
        );
        send({ main_type: WS_MAIN_TYPE.AUTH, token: getToken() ?? token });
      });
      current.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        let message: Record<string, unknown>;
        try {
          message = JSON.parse(event.data) as Record<string, unknown>;
        } catch (error) {
          console.error('[spot-private] a message was not JSON', error);
          return;
        }
        if (message.main_type === WS_MAIN_TYPE.AUTH) {
          if (typeof message.uid === 'string') {
            channel = `${SPOT_CHANNELS.private}${message.uid}`;
            send({ main_type: WS_MAIN_TYPE.SUBSCRIBE, channel });
          } else console.warn('[spot-private] not authenticated', message.reason);
          return;
        }
        if (typeof message.channel !== 'string' || message.channel !== channel) return;
        if (typeof message.reason === 'string') {
          console.warn('[spot-private] subscribe refused', message.reason);
          return;
        }
        const seq = typeof message.seq === 'number' ? message.seq : null;
        if (message.snapshot === true) {
          lastSeq = seq;
          setStatus('live');
          handler.current({ kind: 'snapshot', data: message.data as SpotPrivateSnapshot });
          return;
        }
        if (lastSeq === null) return;
        if (seq === null || seq <= lastSeq) return;
        if (seq !== lastSeq + 1) {
          lastSeq = null;
          send({ main_type: WS_MAIN_TYPE.SUBSCRIBE, channel });
          return;
        }
        lastSeq = seq;
        handler.current({ kind: 'message', data: message.data as SpotPrivateMessage });
      });
      current.addEventListener('close', () => {
        clearInterval(heartbeat);
        if (socket === current) socket = null;
        if (stopped) return;
        setStatus('connecting');
        reconnect = setTimeout(
          connect,
          Math.min(WS_RECONNECT_DELAY_MS * 2 ** Math.min(attempt, 10), RECONNECT_MAX_MS),
        );
        attempt += 1;
      });
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(reconnect);
      clearInterval(heartbeat);
      socket?.close();
    };
  }, [token]);
  return status;
}
