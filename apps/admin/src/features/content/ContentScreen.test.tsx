// @vitest-environment happy-dom
import type { AdminCategoryData, AdminContentData } from '@bourse/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockedApi, mockApi, Refusal, signIn } from '../../test/api.ts';
import { NOW } from '../../test/fixtures.ts';
import { fill, renderAdmin } from '../../test/render.tsx';
import ContentScreen from './ContentScreen.tsx';
import { scheduleMs } from './PublishDialog.tsx';

const texts = (en: string, zh: string, ft: string) => ({ en, zh, ft });

function article(overrides: Partial<AdminContentData> = {}): AdminContentData {
  return {
    id: 'cnt_1',
    kind: 'help',
    state: 'draft',
    title: texts('How long does a withdrawal take?', '提现需要多长时间？', '提現需要多長時間？'),
    summary: texts('', '', ''),
    body: texts('Withdrawals are **reviewed**.', '提现会先经过**审核**。', '提現會先經過**審核**。'),
    category_id: 'deposits',
    image_url: null,
    link: null,
    sort: 0,
    published_at: null,
    demo: false,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

const CATEGORY: AdminCategoryData = {
  id: 'deposits',
  name: texts('Deposits and withdrawals', '充值与提现', '充值與提現'),
  sort: 1,
  created_at: NOW,
  updated_at: NOW,
};

const page = <T,>(items: T[]) => ({ total: items.length, page: 1, page_size: 20, items });

function setUp(
  rows: AdminContentData[] = [
    article(),
    article({ id: 'cnt_2', kind: 'news', state: 'published', category_id: null, published_at: NOW }),
  ],
): MockedApi {
  const api = mockApi({
    'content/articles': () => page(rows),
    'content/categories': () => ({ items: [CATEGORY] }),
    // The server renders through its sanitizer; here a stand-in that shows it was asked.
    'content/preview': (call) => ({
      html: `<p>rendered: ${String(call.body?.markdown).replace(/[<>]/g, '')}</p>`,
    }),
  });
  signIn(api, ['content.write']);
  return api;
}

describe('the articles back office', () => {
  it('lists entries with kind and state, and filters by both', async () => {
    const api = setUp();
    const { user } = await renderAdmin(<ContentScreen />, { route: '/content' });
    const rows = await screen.findAllByTestId('content-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('How long does a withdrawal take?');
    expect(within(rows[0] as HTMLElement).getByTestId('content-state')).toHaveTextContent('Draft');
    expect(within(rows[1] as HTMLElement).getByTestId('content-state')).toHaveTextContent('Published');
    await user.click(screen.getByTestId('content-filter-state'));
    await user.click(await screen.findByRole('option', { name: 'Scheduled' }));
    await waitFor(() => expect(api.callsTo('content/articles').at(-1)?.query.state).toBe('scheduled'));
  });

  it('creates a help article in three languages with a live preview rendered by the server', async () => {
    const api = setUp([]);
    api.on({ 'content/articles/create': (call) => article({ id: 'cnt_new', ...(call.body as object) }) });
    const { user } = await renderAdmin(<ContentScreen />, { route: '/content' });
    expect(await screen.findByTestId('content-empty')).toBeInTheDocument();
    await user.click(screen.getByTestId('content-create'));
    const editor = await screen.findByRole('dialog');
    await user.click(within(editor).getByTestId('content-category'));
    await user.click(await screen.findByRole('option', { name: /Deposits and withdrawals/ }));
    await fill(user, within(editor).getByTestId('content-title-en'), 'Deposit networks');
    await fill(user, within(editor).getByTestId('content-body-en'), 'Choose the **network**');
    await waitFor(() =>
      expect(within(editor).getByTestId('content-preview-html')).toHaveTextContent(
        'rendered: Choose the **network**',
      ),
    );
    expect(api.callsTo('content/preview').at(-1)?.body).toMatchObject({ markdown: 'Choose the **network**' });
    await user.click(within(editor).getByTestId('content-lang-zh'));
    await fill(user, within(editor).getByTestId('content-title-zh'), '充值网络');
    await fill(user, within(editor).getByTestId('content-body-zh'), '先选择**网络**');
    await user.click(within(editor).getByTestId('content-lang-ft'));
    await fill(user, within(editor).getByTestId('content-title-ft'), '充值網路');
    await fill(user, within(editor).getByTestId('content-body-ft'), '先選擇**網路**');
    await user.click(within(editor).getByTestId('content-save'));
    await waitFor(() => expect(api.callsTo('content/articles/create')).toHaveLength(1));
    expect(api.callsTo('content/articles/create')[0]?.body).toMatchObject({
      kind: 'help',
      category_id: 'deposits',
      title: { en: 'Deposit networks', zh: '充值网络', ft: '充值網路' },
      body: { en: 'Choose the **network**', zh: '先选择**网络**', ft: '先選擇**網路**' },
    });
  });

  it('shows the server’s refusal by field in the editor and keeps it open', async () => {
    const api = setUp();
    api.on({
      'content/articles/update': () =>
        new Refusal('body_zh contains HTML or an unsafe link', 'CONTENT_MARKUP_REFUSED'),
    });
    const { user } = await renderAdmin(<ContentScreen />, { route: '/content' });
    await user.click((await screen.findAllByTestId('content-edit'))[0] as HTMLElement);
    const editor = await screen.findByRole('dialog');
    expect(within(editor).getByTestId('content-title-en')).toHaveValue('How long does a withdrawal take?');
    await user.click(within(editor).getByTestId('content-save'));
    expect(await within(editor).findByTestId('error-note')).toHaveTextContent('body_zh contains HTML');
    expect(api.callsTo('content/articles/update')[0]?.body).toMatchObject({ id: 'cnt_1' });
  });

  it('schedules a publication, and unpublishes only with a reason', async () => {
    const api = setUp();
    api.on({
      'content/articles/publish': () => article({ state: 'scheduled' }),
      'content/articles/unpublish': () => article({ state: 'draft' }),
    });
    const { user } = await renderAdmin(<ContentScreen />, { route: '/content' });
    await user.click(await screen.findByTestId('content-publish'));
    let dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByText('Schedule'));
    fireEvent.change(within(dialog).getByTestId('content-publish-at'), {
      target: { value: '2026-12-01T09:30' },
    });
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('content/articles/publish')).toHaveLength(1));
    expect(api.callsTo('content/articles/publish')[0]?.body).toMatchObject({
      id: 'cnt_1',
      publish_at: scheduleMs('2026-12-01T09:30'),
    });

    await user.click(await screen.findByTestId('content-unpublish'));
    dialog = await screen.findByRole('dialog');
    await fill(user, within(dialog).getByTestId('reason-input'), 'Outdated fees');
    await user.click(within(dialog).getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('content/articles/unpublish')).toHaveLength(1));
    expect(api.callsTo('content/articles/unpublish')[0]?.body).toMatchObject({
      id: 'cnt_2',
      reason: 'Outdated fees',
    });
  });

  it('manages help categories, in Chinese too', async () => {
    const api = setUp();
    api.on({ 'content/categories/create': (call) => ({ ...CATEGORY, ...(call.body as object) }) });
    const { user } = await renderAdmin(<ContentScreen />, { route: '/content', lang: 'zh' });
    await user.click(await screen.findByTestId('content-tab-categories'));
    expect(await screen.findByTestId('category-row')).toHaveTextContent('充值与提现');
    await fill(user, screen.getByTestId('category-id'), 'trading');
    await fill(user, screen.getByTestId('category-name-en'), 'Trading');
    await fill(user, screen.getByTestId('category-name-zh'), '交易');
    await fill(user, screen.getByTestId('category-name-ft'), '交易');
    await user.click(screen.getByTestId('category-save'));
    await waitFor(() => expect(api.callsTo('content/categories/create')).toHaveLength(1));
    expect(api.callsTo('content/categories/create')[0]?.body).toMatchObject({
      id: 'trading',
      name: { en: 'Trading', zh: '交易', ft: '交易' },
    });
    expect(screen.getByTestId('content-screen')).toHaveTextContent('文章与帮助');
  });

  it('deletes a category with a reason; a refusal (articles still in it) stays in the dialog', async () => {
    const api = setUp();
    api.on({
      'content/categories/delete': () =>
        new Refusal('The help category deposits still holds 2 articles', 'CONTENT_CATEGORY_IN_USE'),
    });
    const { user } = await renderAdmin(<ContentScreen />, { route: '/content' });
    await user.click(await screen.findByTestId('content-tab-categories'));
    await user.click(within(await screen.findByTestId('category-row')).getByTestId('category-delete'));
    await fill(user, await screen.findByTestId('reason-input'), 'Merged into account');
    await user.click(screen.getByTestId('reason-confirm'));
    await waitFor(() => expect(api.callsTo('content/categories/delete')).toHaveLength(1));
    expect(api.callsTo('content/categories/delete')[0]?.body).toMatchObject({
      id: 'deposits',
      reason: 'Merged into account',
    });
    expect(await screen.findByTestId('error-note')).toHaveTextContent('still holds 2 articles');
  });
});
