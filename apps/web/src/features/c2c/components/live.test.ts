// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { marketStore } from '../../../lib/marketStore.ts';
import { startMarketSocket } from '../../../lib/ws.ts';
import { mockApi } from '../../../shared/testing/api.ts';
import { message, order, verification } from '../test/fixtures.ts';
import { renderC2c } from '../test/render.tsx';

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

describe('/c2c_submit live over c2c_private:<uid>', () => {
  it('a message from the other side appears without a reload; a state change refetches the order', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    let current = order();
    const mocked = mockApi({
      getVerification: () => verification(),
      c2cOrder: () => current,
      c2cMessages: () => [message(1)],
    });
    await renderC2c({ route: '/c2c_submit?order_id=cod_1' });
    stop = startMarketSocket();
    const ws = FakeSocket.sockets[0] as FakeSocket;
    act(() => ws.emit('open'));
    act(() => ws.emit('message', { main_type: 4, uid: '100001' }));
    await waitFor(() =>
      expect(ws.sent.some((m) => m.main_type === 2 && m.channel === 'c2c_private:100001')).toBe(true),
    );
    expect(await screen.findAllByTestId('chat-message')).toHaveLength(1);
    act(() => ws.emit('message', { channel: 'c2c_private:100001', seq: 1, snapshot: true, data: {} }));
    act(() =>
      ws.emit('message', {
        channel: 'c2c_private:100001',
        seq: 2,
        data: {
          type: 'message',
          order_id: 'cod_1',
          message: message(2, { body: 'Received, releasing now' }),
        },
      }),
    );
    await waitFor(() => expect(screen.getAllByTestId('chat-message')).toHaveLength(2));
    expect(screen.getByText('Received, releasing now')).toBeInTheDocument();
    expect(mocked.callsTo('c2cMessages')).toHaveLength(1);

    current = order({ state: 'cancelled', pay_to: null, end_reason: 'cancelled_by_payer' });
    act(() =>
      ws.emit('message', {
        channel: 'c2c_private:100001',
        seq: 3,
        data: { type: 'order', order_id: 'cod_1', state: 'cancelled', event: 'cancel' },
      }),
    );
    expect(await screen.findByTestId('order-end-reason')).toHaveAttribute(
      'data-reason',
      'cancelled_by_payer',
    );
    expect(screen.queryByTestId('c2c-pay-to')).toBeNull();
  });
});
