// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { marketStore } from '../../../lib/marketStore.ts';
import { startMarketSocket } from '../../../lib/ws.ts';
import { notice, noticeApi, renderNotice } from '../test/fixtures.tsx';

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

describe('notices live over inbox_private:<uid> and inbox_public', () => {
  it('a new notice raises the bell and joins the list without a reload; an announcement refetches', async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    let items = [notice({ read: true })];
    let unread = 0;
    const mocked = noticeApi({
      getNotices: () => ({ total: items.length, page: 1, page_size: 20, items }),
      getUnreadCount: () => ({ unread }),
    });
    await renderNotice();
    stop = startMarketSocket();
    const ws = FakeSocket.sockets[0] as FakeSocket;
    act(() => ws.emit('open'));
    act(() => ws.emit('message', { main_type: 4, uid: '100001' }));
    await waitFor(() =>
      expect(ws.sent.some((m) => m.main_type === 2 && m.channel === 'inbox_private:100001')).toBe(true),
    );
    expect(ws.sent.some((m) => m.main_type === 2 && m.channel === 'inbox_public')).toBe(true);
    expect(ws.sent.some((m) => m.main_type === 2 && m.channel === 'inbox_private:100002')).toBe(false);
    await waitFor(() => expect(screen.getByTestId('notice-bell-badge')).toHaveAttribute('data-unread', '0'));
    expect(await screen.findAllByTestId('notice-item')).toHaveLength(1);

    const arrived = notice({ id: 'obx_2', title: 'Loan paid out', kind: 'loan' });
    items = [arrived, ...items];
    unread = 1;
    act(() => ws.emit('message', { channel: 'inbox_private:100001', seq: 1, snapshot: true, data: {} }));
    act(() =>
      ws.emit('message', {
        channel: 'inbox_private:100001',
        seq: 2,
        data: { type: 'notice', unread: 1, notice: arrived },
      }),
    );
    await waitFor(() => expect(screen.getByTestId('notice-bell-badge')).toHaveAttribute('data-unread', '1'));
    await waitFor(() => expect(screen.getAllByTestId('notice-item')).toHaveLength(2));
    expect(screen.getByText('Loan paid out')).toBeInTheDocument();

    const before = mocked.callsTo('getUnreadCount').length;
    unread = 2;
    act(() => ws.emit('message', { channel: 'inbox_public', seq: 1, snapshot: true, data: {} }));
    act(() =>
      ws.emit('message', {
        channel: 'inbox_public',
        seq: 2,
        data: { type: 'announcement', id: 'ann_9', published_at: 1 },
      }),
    );
    await waitFor(() => expect(mocked.callsTo('getUnreadCount').length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByTestId('notice-bell-badge')).toHaveAttribute('data-unread', '2'));
  });
});
