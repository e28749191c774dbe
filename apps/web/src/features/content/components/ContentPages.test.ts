// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, Refusal } from '../../../shared/testing/api.ts';
import { contentHandlers, entry, page } from '../test/fixtures.ts';
import { renderContent } from '../test/render.tsx';

describe('the help centre', () => {
  it('shows the topics, the first topic’s articles, and opens an article', async () => {
    const api = mockApi(contentHandlers());
    const { user } = await renderContent({ route: '/help' });
    const topics = await screen.findAllByTestId('help-category');
    expect(topics.map((t) => t.dataset.id)).toEqual(['deposits', 'account']);
    expect(topics[0]).toHaveAttribute('aria-pressed', 'true');
    expect(topics[0]).toHaveTextContent('2 articles');
    const items = await screen.findAllByTestId('content-item');
    expect(items[0]).toHaveAttribute('href', '/helpDetail?id=cnt_help');
    expect(api.callsTo('getTextsList')[0]?.params).toMatchObject({ kind: 'help', category: 'deposits' });
    // A topic without articles says so.
    await user.click(topics[1] as HTMLElement);
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('No articles in this topic yet.');
    expect(screen.getByTestId('location')).toHaveTextContent('/help?category=account');
  });

  it('searches in the reader’s language and says when nothing is found', async () => {
    const api = mockApi(contentHandlers());
    const { user } = await renderContent({ route: '/settingHelp', lang: 'zh' });
    await screen.findAllByTestId('help-category');
    await user.type(screen.getByTestId('help-search'), '提现');
    await user.click(screen.getByTestId('help-search-submit'));
    const results = await screen.findByTestId('help-results');
    expect((await within(results).findAllByText('提现需要多长时间？')).length).toBeGreaterThan(0);
    expect(api.callsTo('searchContent')[0]?.params).toMatchObject({ q: '提现', lang: 'zh' });
    await user.clear(screen.getByTestId('help-search'));
    await user.type(screen.getByTestId('help-search'), 'nothing');
    await user.click(screen.getByTestId('help-search-submit'));
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('没有找到与“nothing”相关的内容');
  });

  it('says when there are no topics', async () => {
    mockApi({ getHelpCategories: () => [] });
    await renderContent({ route: '/help' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent(
      'The help centre has no topics yet.',
    );
  });

  it('shows an error with a retry when the topics cannot load', async () => {
    let fail = true;
    mockApi({ ...contentHandlers(), getHelpCategories: () => (fail ? new Refusal('SERVER_ERROR') : []) });
    const { user } = await renderContent({ route: '/help' });
    const error = await screen.findByTestId('content-error');
    fail = false;
    await user.click(within(error).getByRole('button'));
    expect(await screen.findByTestId('content-empty')).toBeInTheDocument();
  });
});

describe('articles', () => {
  it('renders the server’s sanitized HTML and navigates app links inside the app', async () => {
    mockApi({ getArticle: () => entry({ id: 'cnt_9' }) });
    const { user } = await renderContent({ route: '/helpDetail?id=cnt_9' });
    const body = await screen.findByTestId('article-body');
    expect(body.querySelector('strong')).toHaveTextContent('reviewed');
    expect(screen.getByTestId('content-title')).toHaveTextContent('How long does a withdrawal take?');
    expect(screen.getByTestId('content-back')).toHaveAttribute('href', '/help');
    await user.click(within(body).getByText('Markets'));
    expect(screen.getByTestId('location')).toHaveTextContent('/market');
  });

  it('says an unknown or unpublished article does not exist', async () => {
    mockApi({ getArticle: () => new Refusal('NOT_FOUND') });
    await renderContent({ route: '/setting-newdetail?id=cnt_gone' });
    expect(await screen.findByTestId('content-not-found')).toBeInTheDocument();
    expect(screen.getByTestId('content-back')).toHaveAttribute('href', '/settingNew');
    expect(screen.getByTestId('content-title')).toHaveTextContent('does not exist');
  });

  it('without an id, says so without calling', async () => {
    const api = mockApi({});
    await renderContent({ route: '/benefitsDetail' });
    expect(await screen.findByTestId('content-not-found')).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });
});

describe('news flash, about, security, benefits and texts', () => {
  it('lists news and announcements, filters by kind, links to the detail page', async () => {
    const api = mockApi(contentHandlers());
    const { user } = await renderContent({ route: '/settingNew' });
    const items = await screen.findAllByTestId('content-item');
    expect(items.map((i) => i.getAttribute('href'))).toEqual([
      '/setting-newdetail?id=cnt_news',
      '/setting-newdetail?id=cnt_announcement',
    ]);
    await user.click(within(screen.getByTestId('news-flash-kind')).getByText('Announcement'));
    await waitFor(() => expect(api.callsTo('getTextsList').at(-1)?.params.kind).toBe('announcement'));
  });

  it('says there is no news yet', async () => {
    mockApi({ getTextsList: () => page([]) });
    await renderContent({ route: '/settingNew' });
    expect(await screen.findByTestId('content-empty')).toHaveTextContent('No news yet.');
  });

  it('shows the about entries in full on both addresses', async () => {
    for (const route of ['/about', '/settingAbout']) {
      const api = mockApi(contentHandlers());
      const view = await renderContent({ route });
      expect(await screen.findByTestId('article-body')).toBeInTheDocument();
      expect(api.callsTo('getTextsList')[0]?.params.kind).toBe('about');
      view.unmount();
    }
  });

  it('always shows the standing security advice, then the operator’s articles', async () => {
    mockApi({ getTextsList: () => page([]) });
    await renderContent({ route: '/security' });
    const advice = await screen.findByTestId('security-advice');
    expect(advice).toHaveTextContent('ask for your password, a verification code');
    expect(screen.getByTestId('security-phrase-link')).toHaveAttribute('href', '/setting');
    await waitFor(() => expect(screen.queryByTestId('content-loading')).toBeNull());
  });

  it('lists benefits and texts, each leading to its page', async () => {
    mockApi(contentHandlers());
    const view = await renderContent({ route: '/benefits' });
    expect((await screen.findAllByTestId('content-item'))[0]).toHaveAttribute(
      'href',
      '/benefitsDetail?id=cnt_benefit',
    );
    view.unmount();
    mockApi(contentHandlers());
    await renderContent({ route: '/text' });
    expect((await screen.findAllByTestId('content-item'))[0]).toHaveAttribute('href', '/text?id=cnt_text');
  });

  it('opens a generic text by id', async () => {
    mockApi(contentHandlers());
    await renderContent({ route: '/text?id=cnt_7' });
    expect(await screen.findByTestId('article')).toHaveAttribute('data-id', 'cnt_7');
    expect(screen.getByTestId('content-back')).toHaveAttribute('href', '/text');
  });
});
