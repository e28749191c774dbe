// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { marketStore } from '../../../lib/marketStore.ts';
import { startMarketSocket } from '../../../lib/ws.ts';
import { mockApi } from '../../../shared/testing/api.ts';
import { conversation, info, message } from '../test/fixtures.ts';
import { renderService } from '../test/render.tsx';

/** The socket the app opens, faked: what it sent, and a way to push what the server would. */
class FakeSocket {
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

describe('/service live over support_private:<uid>', () => {
  it('a staff reply appears without a reload; a status change refreshes the list', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    let current = conversation({ status: 'open', last_seq: 1 });
    const mocked = mockApi({
      supportInfo: () => info(),
      supportConversations: () => [current],
      supportMessages: () => [message(1)],
    });
    await renderService({ route: '/service?id=sup_1' });
    stop = startMarketSocket();
    const ws = FakeSocket.sockets[0] as FakeSocket;
    act(() => ws.emit('open'));
    act(() => ws.emit('message', { main_type: 4, uid: '100001' }));
    await waitFor(() =>
      expect(ws.sent.some((m) => m.main_type === 2 && m.channel === 'support_private:100001')).toBe(true),
    );
    expect(await screen.findAllByTestId('support-message')).toHaveLength(1);
    act(() => ws.emit('message', { channel: 'support_private:100001', seq: 0, snapshot: true, data: {} }));
    act(() =>
      ws.emit('message', {
        channel: 'support_private:100001',
        seq: 1,
        data: {
          type: 'message',
          conversation_id: 'sup_1',
          message: message(2, { body: 'Found it, crediting now' }),
        },
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('support-message')).toHaveLength(2));
    expect(screen.getByText('Found it, crediting now')).toBeInTheDocument();
    expect(mocked.callsTo('supportMessages')).toHaveLength(1);

    current = conversation({ status: 'resolved' });
    act(() =>
      ws.emit('message', {
        channel: 'support_private:100001',
        seq: 2,
        data: { type: 'status', conversation_id: 'sup_1', status: 'resolved' },
      }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('support-status')).toHaveAttribute('data-status', 'resolved'),
    );
  });
});
