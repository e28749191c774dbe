// @vitest-environment happy-dom
import type { AdminAnnouncementData } from '@bourse/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { mockApi, Refusal, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { watchMissingKeys } from '../../test/i18n.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import NoticesScreen from './NoticesScreen.tsx';

function announcement(over: Partial<AdminAnnouncementData> = {}): AdminAnnouncementData {
  return {
    id: 'ann_1',
    state: 'draft',
    title_en: 'Maintenance tonight',
    title_zh: '今晚维护',
    title_ft: '今晚維護',
    body_en: 'Trading pauses at 02:00.',
    body_zh: '交易于 02:00 暂停。',
    body_ft: '交易於 02:00 暫停。',
    link: null,
    publish_at: null,
    created_by: 'stf_me',
    created_at: NOW,
    ...over,
  };
}

const PUBLISHED = announcement({ id: 'ann_2', state: 'published', publish_at: NOW });
const SCHEDULED = announcement({ id: 'ann_3', state: 'published', publish_at: Date.now() + 86_400_000 });

function noticesApi(items: AdminAnnouncementData[] = [announcement(), PUBLISHED, SCHEDULED]) {
  const api = mockApi({
    notices: (c) =>
      c.method === 'POST'
        ? announcement({ id: 'ann_9' })
        : { total: items.length, page: 1, page_size: 50, items },
    'notices/ann_1/publish': () => ({ ...announcement(), state: 'published' }),
    'notices/ann_2/unpublish': () => ({ ...PUBLISHED, state: 'unpublished' }),
  });
  signIn(api, ['content.write']);
  return api;
}

const rowOf = async (id: string) => {
  const rows = await screen.findAllByTestId('notice-row');
  const row = rows.find((r) => r.dataset.id === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

let watch: ReturnType<typeof watchMissingKeys> | null = null;
afterEach(() => {
  watch?.stop();
  watch = null;
});

describe('back office: announcements', () => {
  it('lists drafts, published and scheduled ones with the action each allows', async () => {
    noticesApi();
    await renderAdmin(<NoticesScreen />);
    expect((await rowOf('ann_1')).dataset.state).toBe('draft');
    expect((await rowOf('ann_2')).dataset.state).toBe('published');
    expect((await rowOf('ann_3')).dataset.state).toBe('scheduled');
    expect(within(await rowOf('ann_1')).getByTestId('notice-publish')).toBeInTheDocument();
    expect(within(await rowOf('ann_2')).getByTestId('notice-unpublish')).toBeInTheDocument();
  });

  it('composes in three languages with a preview; refuses to save until every language is written', async () => {
    const api = noticesApi();
    const { user } = await renderAdmin(<NoticesScreen />);
    await user.click(await screen.findByTestId('notice-create'));
    const form = await screen.findByTestId('notice-compose');
    await fill(user, within(form).getByTestId('notice-title-en'), 'Maintenance tonight');
    await fill(user, within(form).getByTestId('notice-body-en'), 'Trading pauses at 02:00.');
    expect(within(form).getByTestId('notice-preview-en')).toHaveTextContent('Maintenance tonight');
    await user.click(within(form).getByTestId('notice-save'));
    expect(await within(form).findByTestId('notice-incomplete')).toBeInTheDocument();
    expect(api.callsTo('notices').filter((c) => c.method === 'POST')).toHaveLength(0);
    for (const [lang, title, body] of [
      ['zh', '今晚维护', '交易于 02:00 暂停。'],
      ['ft', '今晚維護', '交易於 02:00 暫停。'],
    ] as const) {
      await user.click(within(form).getByTestId(`notice-compose-tab-${lang}`));
      await fill(user, within(form).getByTestId(`notice-title-${lang}`), title);
      await fill(user, within(form).getByTestId(`notice-body-${lang}`), body);
      expect(within(form).getByTestId(`notice-preview-${lang}`)).toHaveTextContent(title);
    }
    await fill(user, within(form).getByTestId('notice-link'), '/market');
    await user.click(within(form).getByTestId('notice-save'));
    await waitFor(() => expect(api.callsTo('notices').filter((c) => c.method === 'POST')).toHaveLength(1));
    expect(api.callsTo('notices').find((c) => c.method === 'POST')?.body).toMatchObject({
      title_zh: '今晚维护',
      body_ft: '交易於 02:00 暫停。',
      link: '/market',
    });
  });

  it('publishes at a time with a reason; unpublishes with a reason; a refusal stays in the dialog', async () => {
    const api = noticesApi();
    const { user } = await renderAdmin(<NoticesScreen />);
    await user.click(within(await rowOf('ann_1')).getByTestId('notice-publish'));
    await user.click(await screen.findByTestId('notice-publish-at'));
    const when = await screen.findByTestId('notice-publish-when');
    await fill(user, when, '2026-12-01T09:30');
    await fill(user, screen.getByTestId('reason-input'), 'Planned maintenance');
    await user.click(screen.getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('notices/ann_1/publish')).toHaveLength(1));
    expect(api.callsTo('notices/ann_1/publish')[0]?.body).toMatchObject({
      reason: 'Planned maintenance',
      publish_at: String(new Date('2026-12-01T09:30').getTime()),
    });
    expect(await screen.findByTestId('notice-done')).toBeInTheDocument();

    api.on({ 'notices/ann_2/unpublish': () => new Refusal('Reason is required', 'FIELD_REQUIRED') });
    await user.click(within(await rowOf('ann_2')).getByTestId('notice-unpublish'));
    await fill(user, await screen.findByTestId('reason-input'), 'x');
    await user.click(screen.getByTestId('reason-confirm'));
    expect(await screen.findByTestId('error-note')).toHaveTextContent('Reason is required');
  });

  it('edits a draft or a scheduled one with a reason; a published one offers no edit', async () => {
    const api = noticesApi();
    api.on({ 'notices/ann_1/update': () => announcement({ title_en: 'Maintenance moved' }) });
    const { user } = await renderAdmin(<NoticesScreen />);
    expect(within(await rowOf('ann_3')).getByTestId('notice-edit')).toBeInTheDocument();
    expect(within(await rowOf('ann_2')).queryByTestId('notice-edit')).toBeNull();
    await user.click(within(await rowOf('ann_1')).getByTestId('notice-edit'));
    const title = await screen.findByTestId('notice-title-en');
    expect(title).toHaveValue('Maintenance tonight');
    await fill(user, title, 'Maintenance moved');
    await user.click(screen.getByTestId('notice-save'));
    expect(api.callsTo('notices/ann_1/update')).toHaveLength(0); // no reason yet
    await fill(user, screen.getByTestId('notice-edit-reason'), 'New time');
    await user.click(screen.getByTestId('notice-save'));
    await waitFor(() => expect(api.callsTo('notices/ann_1/update')).toHaveLength(1));
    expect(api.callsTo('notices/ann_1/update')[0]?.body).toMatchObject({
      title_en: 'Maintenance moved',
      title_zh: '今晚维护',
      reason: 'New time',
    });
  });

  it.each(['zh', 'ft'] as const)('%s: no missing key', async (lang) => {
    noticesApi();
    watch = watchMissingKeys();
    const { user } = await renderAdmin(<NoticesScreen />, { lang });
    await rowOf('ann_1');
    await user.click(screen.getByTestId('notice-create'));
    await screen.findByTestId('notice-compose');
    expect(screen.getByTestId('notices-screen')).not.toHaveTextContent('Announcements');
    expect(watch.missing).toEqual([]);
  });
});
