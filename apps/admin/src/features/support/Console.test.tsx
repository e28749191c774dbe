// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import CannedScreen from './CannedScreen.tsx';
import ConsoleScreen from './ConsoleScreen.tsx';
import MetricsScreen from './MetricsScreen.tsx';
import { supportApi } from './testing.ts';

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

async function openConversation(user: Awaited<ReturnType<typeof renderAdmin>>['user']) {
  await user.click(await screen.findByTestId('support-queue-row'));
  return screen.findByTestId('support-admin-conversation');
}

describe('the support console', () => {
  it('queue → conversation: customer messages, the audited attachment link, the note marked internal', async () => {
    const api = supportApi();
    const { user } = await renderAdmin(<ConsoleScreen />);
    expect(api.callsTo('support/queue')[0]?.query).toMatchObject({ queue: 'unassigned' });
    expect(await screen.findByTestId('support-my-code')).toHaveTextContent('BS-7K2Q9M');
    const pane = await openConversation(user);
    const messages = await within(pane).findAllByTestId('support-admin-message');
    expect(messages.map((m) => m.dataset.from)).toEqual(['customer', 'customer', 'note']);
    expect(messages[2]).toHaveTextContent('never shown to the customer');
    expect(within(pane).getByTestId('support-admin-file')).toHaveAttribute(
      'href',
      'https://files.test/upl_1?sig=1',
    );
  });

  it('a canned reply goes in in the customer’s language; reply, note, take and status are sent', async () => {
    const api = supportApi();
    const { user } = await renderAdmin(<ConsoleScreen />);
    const pane = await openConversation(user);
    await user.click(within(pane).getByTestId('support-canned-pick'));
    await user.click(await screen.findByRole('option', { name: 'Greeting' }));
    await waitFor(() =>
      expect(within(pane).getByTestId('support-reply-input')).toHaveValue('您好，正在为您查看。'),
    );
    await user.click(within(pane).getByTestId('support-reply'));
    await waitFor(() => expect(api.callsTo('support/conversations/sup_1/reply')).toHaveLength(1));
    expect(api.callsTo('support/conversations/sup_1/reply')[0]?.body).toMatchObject({
      body: '您好，正在为您查看。',
    });
    await fill(user, within(pane).getByTestId('support-note-input'), 'Asked finance');
    await user.click(within(pane).getByTestId('support-note'));
    await waitFor(() =>
      expect(api.callsTo('support/conversations/sup_1/note')[0]?.body).toMatchObject({
        body: 'Asked finance',
      }),
    );
    await user.click(within(pane).getByTestId('support-take'));
    await waitFor(() => expect(api.callsTo('support/conversations/sup_1/assign')).toHaveLength(1));
    await user.click(within(pane).getByTestId('support-set-status'));
    await user.click(await screen.findByRole('option', { name: 'Resolved' }));
    await waitFor(() =>
      expect(api.callsTo('support/conversations/sup_1/status')[0]?.body).toMatchObject({
        status: 'resolved',
      }),
    );
  });

  it('read only without support.write: no reply box, no actions', async () => {
    supportApi(['support.read']);
    const { user } = await renderAdmin(<ConsoleScreen />);
    const pane = await openConversation(user);
    expect(within(pane).queryByTestId('support-reply')).toBeNull();
    expect(within(pane).queryByTestId('support-take')).toBeNull();
  });

  it('canned replies are added in three languages; metrics show the medians', async () => {
    const api = supportApi();
    const { user } = await renderAdmin(<CannedScreen />);
    expect(await screen.findAllByTestId('support-canned-row')).toHaveLength(1);
    await user.click(screen.getByTestId('support-canned-add'));
    await fill(user, screen.getByTestId('support-canned-title'), 'Bye');
    await fill(user, screen.getByTestId('support-canned-body_en'), 'Goodbye');
    await fill(user, screen.getByTestId('support-canned-body_zh'), '再见');
    await fill(user, screen.getByTestId('support-canned-body_ft'), '再見');
    await user.click(screen.getByTestId('support-canned-save'));
    await waitFor(() =>
      expect(api.callsTo('support/canned').find((c) => c.method === 'POST')?.body).toMatchObject({
        title: 'Bye',
        body_zh: '再见',
        body_ft: '再見',
      }),
    );
  });

  it('metrics', async () => {
    supportApi();
    await renderAdmin(<MetricsScreen />);
    const first = await screen.findByTestId('support-metric-first');
    await waitFor(() => expect(first).toHaveTextContent('14.5 min'));
    expect(screen.getByTestId('support-metric-resolution')).toHaveTextContent('95 min');
  });
});

describe.each(['zh', 'ft'] as const)('the support back office in %s', (lang) => {
  it('the console with a conversation open has no missing key', async () => {
    supportApi();
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<ConsoleScreen />, { lang });
    await openConversation(user);
    expect(watch.missing).toEqual([]);
  });
  it('canned replies and metrics have no missing key', async () => {
    supportApi();
    watch = watchMissingKeys();
    await renderAdmin(<CannedScreen />, { lang });
    await screen.findAllByTestId('support-canned-row');
    expect(watch.missing).toEqual([]);
  });
  it('metrics have no missing key', async () => {
    supportApi();
    watch = watchMissingKeys();
    await renderAdmin(<MetricsScreen />, { lang });
    await screen.findByTestId('support-metric-first');
    expect(watch.missing).toEqual([]);
  });
});
