import { SPOT_CHANNELS, type SpotPrivateMessage, type SpotPrivateSnapshot } from '@bourse/protocol';
import { useEffect, useRef, useState } from 'react';
import { useSocketStatus } from '../../../lib/marketStore.ts';
import { useToken } from '../../../lib/session.ts';
import { useChannel, useSocketUid } from '../../../lib/ws.ts';

/**
 * The customer's private spot channel `spot_private:<uid>`: their own orders, fills and balances,
 * live. It is an ordinary channel of the shared market socket, which authenticates with the session
 * token (lib/ws.ts `authenticate`); the uid comes from the server's answer. Snapshots, sequence gaps
 * (resubscribe for a fresh snapshot) and reconnects are handled there as for every channel.
 */
export type PrivateEvent =
  | { kind: 'snapshot'; data: SpotPrivateSnapshot }
  | { kind: 'message'; data: SpotPrivateMessage };
export type PrivateStatus = 'off' | 'connecting' | 'live';

export function useSpotPrivate(onEvent: (event: PrivateEvent) => void): PrivateStatus {
  const token = useToken();
  const uid = useSocketUid();
  const socket = useSocketStatus();
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const channel = token && uid ? `${SPOT_CHANNELS.private}${uid}` : null;
  /** The channel whose snapshot arrived on the current socket. */
  const [liveOn, setLiveOn] = useState<string | null>(null);

  useEffect(() => {
    if (socket !== 'open') setLiveOn(null);
  }, [socket]);

  useChannel(channel, (event) => {
    if (event.snapshot) {
      setLiveOn(event.channel);
      handler.current({ kind: 'snapshot', data: event.data as SpotPrivateSnapshot });
    } else handler.current({ kind: 'message', data: event.data as SpotPrivateMessage });
  });

  if (!token) return 'off';
  return channel !== null && socket === 'open' && liveOn === channel ? 'live' : 'connecting';
}
