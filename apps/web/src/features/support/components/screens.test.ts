// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import { CLOSED, conversation, info, message } from '../test/fixtures.ts';
import { renderService } from '../test/render.tsx';

describe('/service', () => {
  it('shows my conversations, the staffed hours, the safety statement and the staff-code check', async () => {
    const api = mockApi({
      supportInfo: () => info(),
      supportConversations: () => [
        conversation(),
        conversation({ id: 'sup_2', subject: 'Card', status: 'resolved' }),
      ],
      verifyStaff: (call) =>
        call.params.code === 'BS-7K2Q9M'
          ? { code: 'BS-7K2Q9M', valid: true, name: 'Amy Wong' }
          : { code: call.params.code, valid: false, name: null },
    });
    const { user } = await renderService();
    expect(await screen.findAllByTestId('support-item')).toHaveLength(2);
    expect(screen.getByTestId('support-hours')).toHaveAttribute('data-open', '1');
    // The hours grammar (`Asia/Hong_Kong Mon-Fri 09:00-18:00`) in words: days and zone localized.
    expect(screen.getByTestId('support-hours-text')).toHaveTextContent('Mon–Fri 09:00–18:00 (Hong Kong');
    expect(screen.getByTestId('support-hours-text')).not.toHaveTextContent('Asia/Hong_Kong');
    const safety = screen.getByTestId('support-safety');
    expect(safety).toHaveTextContent('never ask for your login or trade password');
    expect(safety).toHaveTextContent('send money or coins');
    await user.type(screen.getByTestId('support-verify-input'), 'BS-7K2Q9M');
    await user.click(screen.getByTestId('support-verify-button'));
    expect(await screen.findByTestId('support-verify-result')).toHaveAttribute('data-valid', '1');
    expect(screen.getByTestId('support-verify-result')).toHaveTextContent('Amy Wong');
    await user.clear(screen.getByTestId('support-verify-input'));
    await user.type(screen.getByTestId('support-verify-input'), 'BS-FAKE99');
    await user.click(screen.getByTestId('support-verify-button'));
    await waitFor(() =>
      expect(screen.getByTestId('support-verify-result')).toHaveAttribute('data-valid', '0'),
    );
    expect(screen.getByTestId('support-verify-result')).toHaveTextContent('Do not trust');
    expect(api.unhandled).toEqual([]);
  });

  it('the staffed hours in the reader’s language: no schedule grammar left in Chinese', async () => {
    mockApi({ supportInfo: () => info(), supportConversations: () => [] });
    await renderService({ lang: 'zh' });
    const text = await screen.findByTestId('support-hours-text');
    expect(text).toHaveTextContent('09:00–18:00');
    expect(text.textContent).not.toMatch(/Mon|Fri|Asia\/Hong_Kong/);
  });

  it('out of hours: says so and when staff are next in', async () => {
    mockApi({ supportInfo: () => CLOSED, supportConversations: () => [] });
    await renderService();
    expect(await screen.findByTestId('support-out-of-hours')).toHaveTextContent(
      'Your message becomes a ticket',
    );
    expect(screen.getByTestId('support-hours')).toHaveAttribute('data-open', '0');
  });

  it('starts a conversation linked to an order from the query string; the session is the identity', async () => {
    let started = false;
    const api = mockApi({
      supportInfo: () => info(),
      supportConversations: () =>
        started
          ? [conversation({ id: 'sup_9', ref_type: 'c2c_order', ref_id: 'cod_77', status: 'open' })]
          : [],
      supportStart: () => {
        started = true;
        return {
          conversation: conversation({
            id: 'sup_9',
            status: 'open',
            ref_type: 'c2c_order',
            ref_id: 'cod_77',
          }),
          message: message(1),
          ...info(),
        };
      },
      supportMessages: () => [message(1)],
    });
    const { user } = await renderService({ route: '/service?ref_type=c2c_order&ref_id=cod_77' });
    expect(await screen.findByTestId('support-start-ref')).toHaveTextContent('cod_77');
    await user.type(screen.getByTestId('support-subject'), 'Order not released');
    await user.type(screen.getByTestId('support-body'), 'I paid an hour ago');
    await user.click(screen.getByTestId('support-start-submit'));
    await waitFor(() => expect(api.callsTo('supportStart')).toHaveLength(1));
    expect(api.callsTo('supportStart')[0]?.params).toMatchObject({
      subject: 'Order not released',
      body: 'I paid an hour ago',
      ref_type: 'c2c_order',
      ref_id: 'cod_77',
    });
    expect(Object.keys(api.callsTo('supportStart')[0]?.params ?? {})).not.toContain('name');
    expect(await screen.findByTestId('support-conversation')).toHaveAttribute('data-id', 'sup_9');
  });

  it('a conversation: staff replies show name and staff code; out-of-hours messages are marked; a refusal is shown', async () => {
    mockApi({
      supportInfo: () => info(),
      supportConversations: () => [conversation()],
      supportMessages: () => [message(1, { out_of_hours: true }), message(2)],
      supportSend: () => new Refusal('SUPPORT_MESSAGES_TOO_MANY', { max: 1000 }, 'This conversation is full'),
    });
    const { user } = await renderService({ route: '/service?id=sup_1', viewport: 'phone' });
    const messages = await screen.findAllByTestId('support-message');
    expect(messages.map((m) => m.dataset.from)).toEqual(['customer', 'staff']);
    expect(within(messages[1] as HTMLElement).getByTestId('support-staff-id')).toHaveTextContent(
      'Amy Wong · staff code BS-7K2Q9M',
    );
    expect(within(messages[0] as HTMLElement).getByTestId('support-ticket')).toBeInTheDocument();
    await user.type(screen.getByTestId('support-input'), 'Any news?');
    await user.click(screen.getByTestId('support-send'));
    expect(await screen.findByTestId('support-error')).toHaveTextContent('This conversation is full');
  });
});
