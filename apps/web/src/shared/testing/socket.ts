import { act } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { marketStore } from '../../lib/marketStore.ts';
import { startMarketSocket } from '../../lib/ws.ts';

/**
 * The app's websocket, faked for a feature's live test: what the app sent, and a way to push what the
 * server would. `stubSocket()` before rendering, `openLiveSocket(uid)` after: the app's socket opens
 * and is signed in as `uid`; each test's socket is stopped and the market store reset afterwards.
 */
export class FakeSocket {
  static OPEN = 1;
  static sockets: FakeSocket[] = [];
  readyState = 0;
  sent: Array<{ main_type: number; channel?: string; token?: string }> = [];
  private handlers = new Map<string, Array<(e: { data?: unknown }) => void>>();
  constructor() {
    FakeSocket.sockets.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.emit('close');
  }
  addEventListener(type: string, fn: (e: { data?: unknown }) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), fn]);
  }
  emit(type: string, data?: unknown) {
    if (type === 'open') this.readyState = 1;
    if (type === 'close') this.readyState = 3;
    for (const fn of this.handlers.get(type) ?? [])
      fn({ data: data === undefined ? undefined : JSON.stringify(data) });
  }
}

let stop: (() => void) | null = null;
afterEach(() => {
  stop?.();
  stop = null;
  FakeSocket.sockets = [];
  marketStore.reset();
});

export function stubSocket(): void {
  vi.stubGlobal('WebSocket', FakeSocket);
}

export function openLiveSocket(uid: string): FakeSocket {
  stop = startMarketSocket();
  const ws = FakeSocket.sockets[0] as FakeSocket;
  act(() => ws.emit('open'));
  act(() => ws.emit('message', { main_type: 4, uid }));
  return ws;
}
