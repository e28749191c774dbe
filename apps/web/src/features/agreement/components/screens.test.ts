// @vitest-environment happy-dom
import type { AgreementKind } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import { agreement, pending, status } from '../test/fixtures.ts';
import { renderAgreement } from '../test/render.tsx';

const kindOf = (params: Record<string, string>) => params.kind as AgreementKind;

describe('the agreement page', () => {
  it.each(['/userAgreement', '/agrt', '/agreement'])(
    '%s shows the user agreement in force without login: version, date, text, every version',
    async (route) => {
      const api = mockApi({ getAgreement: (call) => agreement(kindOf(call.params)) });
      await renderAgreement({ route, signedIn: false });
      expect(await screen.findByTestId('agreement-title')).toHaveTextContent('User Agreement');
      expect(api.callsTo('getAgreement')[0]?.params).toMatchObject({ kind: 'user' });
      expect(screen.getByTestId('agreement-meta')).toHaveTextContent(
        'Version 2 · In force since November 21, 2026',
      );
      expect(screen.getByTestId('agreement-summary')).toHaveTextContent('Section 2 now covers leverage.');
      const body = screen.getByTestId('agreement-body');
      expect(within(body).getByRole('heading', { name: '1. Your account' })).toBeInTheDocument();
      // Markup in a text stays text: no element is made from it.
      expect(body).toHaveTextContent('<script>alert(1)</script> stays text');
      expect(body.querySelector('script')).toBeNull();
      expect(within(body).getAllByRole('listitem')).toHaveLength(2);
      expect(screen.getAllByTestId('agreement-version-item')).toHaveLength(2);
      expect(screen.getByTestId('agreement-link-privacy')).toHaveAttribute('href', `${route}?kind=privacy`);
    },
  );

  it('shows an earlier version as earlier, with the way back to the one in force', async () => {
    const api = mockApi({
      getAgreement: (call) =>
        agreement(kindOf(call.params), 'en', { version: 1, current: false, effective_at: 0 }),
    });
    const { user } = await renderAgreement({ route: '/userAgreement?kind=risk&version=1', signedIn: false });
    expect(await screen.findByTestId('agreement-earlier')).toHaveTextContent('earlier version');
    expect(api.callsTo('getAgreement')[0]?.params).toMatchObject({ kind: 'risk', version: '1' });
    await user.click(screen.getByRole('link', { name: 'Read the version in force' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/userAgreement?kind=risk');
  });

  it('says when nothing is published yet', async () => {
    mockApi({ getAgreement: (call) => new Refusal('AGREEMENT_NOT_FOUND', { kind: call.params.kind ?? '' }) });
    await renderAgreement({ route: '/agrt', signedIn: false });
    expect(await screen.findByTestId('agreement-empty')).toHaveTextContent('not been published');
  });

  it('offers a retry when loading fails', async () => {
    const api = mockApi({ getAgreement: () => new Refusal('BAD_INPUT', { field: 'kind' }) });
    const { user } = await renderAgreement({ route: '/agrt', signedIn: false, viewport: 'phone' });
    const error = await screen.findByTestId('agreement-error');
    api.on({ getAgreement: (call) => agreement(kindOf(call.params)) });
    await user.click(within(error).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('agreement-title')).toHaveTextContent('User Agreement');
  });
});

describe('the app shell notice', () => {
  it('shows each version in force I have not accepted, and accepting records each and hides it', async () => {
    let accepted = false;
    const api = mockApi({
      agreementStatus: () => (accepted ? status() : status({ pending: [pending('user'), pending('risk')] })),
      acceptAgreement: () => {
        accepted = true;
        return { kind: 'user', version: 2, accepted_at: 0 };
      },
    });
    const { user } = await renderAgreement({ route: '/shell' });
    const notice = await screen.findByTestId('agreement-notice');
    const items = within(notice).getAllByTestId('agreement-notice-item');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('User Agreement, version 2, in force since November 21, 2026');
    expect(items[0]).toHaveTextContent('Section 2 now covers leverage.');
    expect(within(items[1] as HTMLElement).getByRole('link', { name: 'Read it' })).toHaveAttribute(
      'href',
      '/userAgreement?kind=risk',
    );
    await user.click(screen.getByTestId('agreement-accept'));
    await waitFor(() => expect(screen.queryByTestId('agreement-notice')).toBeNull());
    expect(api.callsTo('acceptAgreement').map((c) => [c.params.kind, c.params.version])).toEqual([
      ['user', '2'],
      ['risk', '2'],
    ]);
  });

  it('"Later" hides it for the session', async () => {
    const api = mockApi({ agreementStatus: () => status({ pending: [pending('privacy')] }) });
    const { user } = await renderAgreement({ route: '/shell', viewport: 'phone' });
    await user.click(await screen.findByTestId('agreement-later'));
    expect(screen.queryByTestId('agreement-notice')).toBeNull();
    expect(api.callsTo('acceptAgreement')).toHaveLength(0);
  });

  it('is not asked for when signed out', async () => {
    const api = mockApi({ agreementStatus: () => status({ pending: [pending('user')] }) });
    await renderAgreement({ route: '/shell', signedIn: false });
    await new Promise((r) => setTimeout(r, 20));
    expect(api.callsTo('agreementStatus')).toHaveLength(0);
    expect(screen.queryByTestId('agreement-notice')).toBeNull();
  });

  it('says so when an acceptance cannot be recorded', async () => {
    mockApi({
      agreementStatus: () => status({ pending: [pending('user')] }),
      acceptAgreement: () => new Refusal('AGREEMENT_NOT_FOUND', { kind: 'user' }),
    });
    const { user } = await renderAgreement({ route: '/shell' });
    await user.click(await screen.findByTestId('agreement-accept'));
    expect(await screen.findByTestId('agreement-notice-failed')).toBeInTheDocument();
  });
});

describe('/bps: platform documents', () => {
  it('lists each document in force with my acceptance, and accepts in place', async () => {
    const api = mockApi({
      getAgreement: (call) =>
        call.params.kind === 'privacy'
          ? new Refusal('AGREEMENT_NOT_FOUND', { kind: 'privacy' })
          : agreement(kindOf(call.params)),
      agreementStatus: () =>
        status({ pending: [pending('risk')], accepted: [{ kind: 'user', version: 2, accepted_at: 0 }] }),
      acceptAgreement: () => ({ kind: 'risk', version: 2, accepted_at: 0 }),
    });
    const { user } = await renderAgreement({ route: '/bps' });
    const cards = await screen.findAllByTestId('bps-document');
    expect(cards.map((c) => c.dataset.kind)).toEqual(['user', 'privacy', 'risk']);
    await waitFor(() =>
      expect(within(cards[0] as HTMLElement).getByTestId('bps-accepted')).toBeInTheDocument(),
    );
    expect(cards[0]).toHaveTextContent('Version 2');
    expect(cards[1]).toHaveTextContent('Not published yet');
    expect(within(cards[2] as HTMLElement).getByTestId('bps-pending')).toHaveTextContent('Not accepted yet');
    await user.click(within(cards[2] as HTMLElement).getByTestId('bps-accept'));
    await waitFor(() => expect(api.callsTo('acceptAgreement')).toHaveLength(1));
    expect(api.callsTo('acceptAgreement')[0]?.params).toMatchObject({ kind: 'risk', version: '2' });
  });
});
