// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { openLiveSocket, stubSocket } from '../../../shared/testing/socket.ts';
import { conversation, info, message } from '../test/fixtures.ts';
import { renderService } from '../test/render.tsx';

describe('/service live over support_private:<uid>', () => {
  it('a staff reply appears without a reload; a status change refreshes the list', async () => {
    stubSocket();
    let current = conversation({ status: 'open', last_seq: 1 });
    const mocked = mockApi({
      supportInfo: () => info(),
      supportConversations: () => [current],
      supportMessages: () => [message(1)],
    });
    await renderService({ route: '/service?id=sup_1' });
    const ws = openLiveSocket('100001');
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
