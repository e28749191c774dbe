// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../shared/testing/api.ts';
import { openLiveSocket, stubSocket } from '../../../shared/testing/socket.ts';
import { message, order, verification } from '../test/fixtures.ts';
import { renderC2c } from '../test/render.tsx';

describe('/c2c_submit live over c2c_private:<uid>', () => {
  it('a message from the other side appears without a reload; a state change refetches the order', async () => {
    stubSocket();
    let current = order();
    const mocked = mockApi({
      getVerification: () => verification(),
      c2cOrder: () => current,
      c2cMessages: () => [message(1)],
    });
    await renderC2c({ route: '/c2c_submit?order_id=cod_1' });
    const ws = openLiveSocket('100001');
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
