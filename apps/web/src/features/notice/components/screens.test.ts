// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../../shared/testing/api.ts';
import { noticeApi, renderNotice } from '../test/fixtures.tsx';

describe('/notice', () => {
  it('lists messages and announcements, unread marked; opening one shows it and marks it read; the bell follows', async () => {
    const mocked = noticeApi();
    const { user } = await renderNotice();
    const items = await screen.findAllByTestId('notice-item');
    expect(items).toHaveLength(2);
    const first = items[0] as HTMLElement;
    expect(first).toHaveAttribute('data-read', 'false');
    expect(within(first).getByTestId('notice-unread')).toHaveTextContent('Unread');
    expect(within(first).getByTestId('notice-kind')).toHaveTextContent('Withdrawal');
    expect(items[1]).toHaveAttribute('data-read', 'true');
    await waitFor(() => expect(screen.getByTestId('notice-bell-badge')).toHaveAttribute('data-unread', '1'));
    expect(screen.getByTestId('notice-bell')).toHaveAttribute('href', '/notice');
    expect(screen.getByTestId('notice-bell')).toHaveAccessibleName('Notices, 1 unread');

    await user.click(within(first).getByTestId('notice-open'));
    expect(within(first).getByTestId('notice-body')).toHaveTextContent(
      'Your withdrawal of 10 USDT was approved.',
    );
    expect(within(first).getByTestId('notice-link')).toHaveAttribute('href', '/withdrawRecord');
    await waitFor(() => expect(mocked.callsTo('readNotice')).toHaveLength(1));
    expect(mocked.callsTo('readNotice')[0]?.params.id).toBe('obx_1');
    await waitFor(() => expect(screen.getByTestId('notice-bell-badge')).toHaveAttribute('data-unread', '0'));
    await waitFor(() => expect(screen.getAllByTestId('notice-item')[0]).toHaveAttribute('data-read', 'true'));
    expect(mocked.unhandled).toEqual([]);
  });

  it('tabs ask for messages or announcements; mark all read', async () => {
    const mocked = noticeApi();
    const { user } = await renderNotice();
    await screen.findAllByTestId('notice-item');
    await user.click(screen.getByTestId('notice-tab-announcement'));
    await waitFor(() => expect(mocked.callsTo('getNotices').at(-1)?.params.kind).toBe('announcement'));
    await waitFor(() => expect(screen.getAllByTestId('notice-item')).toHaveLength(1));
    await user.click(screen.getByTestId('notice-tab-message'));
    await waitFor(() => expect(mocked.callsTo('getNotices').at(-1)?.params.kind).toBe('message'));
    await user.click(screen.getByTestId('notice-read-all'));
    await waitFor(() => expect(mocked.callsTo('readAllNotices')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('notice-bell-badge')).toHaveAttribute('data-unread', '0'));
  });

  it('an empty list says so', async () => {
    noticeApi({ getNotices: () => ({ total: 0, page: 1, page_size: 20, items: [] }) });
    await renderNotice();
    expect(await screen.findByTestId('notice-empty')).toHaveTextContent('Nothing here yet.');
  });

  it('a failed list says so and retries', async () => {
    let fail = true;
    const mocked = noticeApi({
      getNotices: () =>
        fail ? new Refusal('SERVER_ERROR') : { total: 0, page: 1, page_size: 20, items: [] },
    });
    const { user } = await renderNotice();
    expect(await screen.findByTestId('notice-error')).toHaveTextContent('Your notices could not be loaded.');
    fail = false;
    await user.click(screen.getByTestId('notice-retry'));
    expect(await screen.findByTestId('notice-empty')).toBeInTheDocument();
    expect(mocked.callsTo('getNotices').length).toBeGreaterThanOrEqual(2);
  });

  it('logged out: asks to log in and calls nothing', async () => {
    const mocked = noticeApi();
    await renderNotice({ signedIn: false });
    expect(await screen.findByTestId('notice-login')).toBeInTheDocument();
    expect(screen.queryByTestId('notice-bell')).toBeNull();
    expect(mocked.calls).toEqual([]);
  });

  it('e-mail preferences: a kind turned off is sent; security kinds are on, locked, and the screen says why', async () => {
    const mocked = noticeApi();
    const { user } = await renderNotice({ viewport: 'phone' });
    const loan = await screen.findByTestId('notice-pref-loan');
    expect(loan).toBeChecked();
    expect(screen.getByTestId('notice-pref-withdrawal')).toBeDisabled();
    expect(screen.getByTestId('notice-pref-withdrawal')).toBeChecked();
    expect(screen.getByTestId('notice-pref-security')).toBeDisabled();
    expect(screen.getByTestId('notice-prefs-locked')).toHaveTextContent('cannot be turned off');
    await user.click(loan);
    await waitFor(() =>
      expect(mocked.callsTo('setNoticePrefs')[0]?.params).toMatchObject({ kind: 'loan', email: '0' }),
    );
    await waitFor(() => expect(screen.getByTestId('notice-pref-loan')).not.toBeChecked());
  });
});
