// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openLiveSocket, stubSocket } from '../../../shared/testing/socket.ts';
import { notice, noticeApi, renderNotice } from '../test/fixtures.tsx';

describe('notices live over inbox_private:<uid> and inbox_public', () => {
  it('a new notice raises the bell and joins the list without a reload; an announcement refetches', async () => {
    stubSocket();
    let items = [notice({ read: true })];
    let unread = 0;
    const mocked = noticeApi({
      getNotices: () => ({ total: items.length, page: 1, page_size: 20, items }),
      getUnreadCount: () => ({ unread }),
    });
    await renderNotice();
    const ws = openLiveSocket('100001');
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
