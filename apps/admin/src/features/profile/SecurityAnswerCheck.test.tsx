// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal, signIn } from '../../test/api.ts';
import { DETAIL } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import CustomerDetailScreen from '../customers/CustomerDetailScreen.tsx';

describe('the security answer check on a customer', () => {
  it('sends what the caller said with the reason and shows match / no match, never an answer', async () => {
    const api = mockApi({
      getCustomer: () => DETAIL,
      checkSecurityAnswer: ({ body }) =>
        body?.answer === 'Madonna' ? { match: true, checks_left: 4 } : { match: false, checks_left: 3 },
    });
    signIn(api, ['customers.read', 'customers.verify']);
    const { user } = await renderAdmin(<CustomerDetailScreen />, {
      route: `/customers/detail?id=${DETAIL.profile.customer_id}`,
    });
    await screen.findByTestId('security-answer-check');
    await user.click(screen.getByText('Who is your idol?'));
    await fill(user, screen.getByTestId('security-answer-input'), 'Madonna');
    await fill(user, screen.getByTestId('security-answer-reason'), 'caller confirms a withdrawal');
    await user.click(screen.getByTestId('security-answer-submit'));
    expect(await screen.findByTestId('security-answer-result')).toHaveTextContent('Match');
    expect(screen.getByTestId('security-answer-result')).toHaveTextContent('Checks left this hour: 4');
    expect(api.callsTo('checkSecurityAnswer')[0]?.body).toMatchObject({
      customer_id: DETAIL.profile.customer_id,
      question: '2',
      answer: 'Madonna',
      reason: 'caller confirms a withdrawal',
    });
    await fill(user, screen.getByTestId('security-answer-input'), 'Prince');
    await user.click(screen.getByTestId('security-answer-submit'));
    await waitFor(() => expect(screen.getByTestId('security-answer-result')).toHaveTextContent('No match'));
  });

  it('shows the server refusal by name (rate limit) and is absent without the permission', async () => {
    const api = mockApi({
      getCustomer: () => DETAIL,
      checkSecurityAnswer: () =>
        new Refusal(
          "This customer's answers were checked 5 times in the last hour",
          'ANSWER_CHECKS_EXHAUSTED',
        ),
    });
    signIn(api, ['customers.read', 'customers.verify']);
    const { user } = await renderAdmin(<CustomerDetailScreen />, {
      route: `/customers/detail?id=${DETAIL.profile.customer_id}`,
    });
    await screen.findByTestId('security-answer-check');
    await fill(user, screen.getByTestId('security-answer-input'), 'anything');
    await fill(user, screen.getByTestId('security-answer-reason'), 'caller');
    await user.click(screen.getByTestId('security-answer-submit'));
    // Scoped to the card: the customer page shows other cards (the risk rating) with their own notes.
    const card = screen.getByTestId('security-answer-check');
    expect(await within(card).findByTestId('error-note')).toHaveTextContent('checked 5 times');
  });

  it('is not offered to staff without customers.verify', async () => {
    const api = mockApi({ getCustomer: () => DETAIL });
    signIn(api, ['customers.read']);
    await renderAdmin(<CustomerDetailScreen />, {
      route: `/customers/detail?id=${DETAIL.profile.customer_id}`,
    });
    await screen.findByTestId('customer-status');
    expect(screen.queryByTestId('security-answer-check')).toBeNull();
  });
});
