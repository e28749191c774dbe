import type { ContentData, ContentPage, HelpCategoryData } from '@bourse/protocol';
import type { ApiCall } from '../../../shared/testing/api.ts';

/** What the mocked content calls answer in the screen tests: entries in the asked language. */
export const NOW = Date.UTC(2026, 10, 27, 4, 0, 0);

type Lang = 'en' | 'zh' | 'ft';
const pick = (lang: string, texts: Record<Lang, string>) =>
  texts[(lang as Lang) in texts ? (lang as Lang) : 'en'];

export function entry(overrides: Partial<ContentData> = {}): ContentData {
  return {
    id: 'cnt_1',
    kind: 'help',
    title: 'How long does a withdrawal take?',
    summary: 'From your request to the money arriving.',
    body: 'Withdrawals are **reviewed** first.',
    body_html: '<p>Withdrawals are <strong>reviewed</strong> first. <a href="/market">Markets</a></p>',
    category_id: 'deposits',
    image_url: null,
    link: null,
    published_at: NOW,
    ...overrides,
  };
}

export const page = (items: ContentData[]): ContentPage => ({
  total: items.length,
  page: 1,
  page_size: 20,
  items,
});

const TITLES: Record<string, Record<Lang, string>> = {
  help: { en: 'How long does a withdrawal take?', zh: '提现需要多长时间？', ft: '提現需要多長時間？' },
  news: { en: 'Markets open', zh: '市场开放', ft: '市場開放' },
  announcement: { en: 'Maintenance', zh: '系统维护', ft: '系統維護' },
  about: { en: 'About us', zh: '关于我们', ft: '關於我們' },
  security: { en: 'Recognise our staff', zh: '识别官方人员', ft: '識別官方人員' },
  benefit: { en: 'Check your balance is counted', zh: '核验余额', ft: '核驗餘額' },
  text: { en: 'Risk warning', zh: '风险提示', ft: '風險提示' },
};
const BODIES: Record<Lang, string> = {
  en: '<p>Withdrawals are <strong>reviewed</strong> first.</p>',
  zh: '<p>提现会先经过<strong>审核</strong>。</p>',
  ft: '<p>提現會先經過<strong>審核</strong>。</p>',
};

/** An entry of a kind, in a language. */
export function entryIn(lang: string, kind: ContentData['kind'], id = `cnt_${kind}`): ContentData {
  const title = pick(lang, TITLES[kind] ?? (TITLES.text as Record<Lang, string>));
  return entry({
    id,
    kind,
    title,
    summary: title,
    body_html: pick(lang, BODIES),
    category_id: kind === 'help' ? 'deposits' : null,
  });
}

export function categories(lang: string): HelpCategoryData[] {
  return [
    {
      id: 'deposits',
      name: pick(lang, { en: 'Deposits and withdrawals', zh: '充值与提现', ft: '充值與提現' }),
      sort: 1,
      articles: 2,
    },
    {
      id: 'account',
      name: pick(lang, { en: 'Account security', zh: '账户安全', ft: '賬戶安全' }),
      sort: 2,
      articles: 0,
    },
  ];
}

/** Handlers answering every content call from the fixtures above, in the call's language. */
export function contentHandlers() {
  return {
    getTextsList: (call: ApiCall) => {
      const lang = call.params.lang ?? 'en';
      const kind = call.params.kind;
      if (kind === undefined) return page([entryIn(lang, 'news'), entryIn(lang, 'announcement')]);
      if (kind === 'help' && call.params.category === 'account') return page([]);
      return page([entryIn(lang, kind as ContentData['kind'])]);
    },
    getHelpCategories: (call: ApiCall) => categories(call.params.lang ?? 'en'),
    getArticle: (call: ApiCall) => ({ ...entryIn(call.params.lang ?? 'en', 'help'), id: call.params.id }),
    searchContent: (call: ApiCall) =>
      page(call.params.q === 'nothing' ? [] : [entryIn(call.params.lang ?? 'en', 'help')]),
  };
}
