import type { Shape } from '../shape.ts';
import type { contentEn } from './content.en.ts';

/** The `content` namespace, 繁體中文. */
export const contentFt: Shape<typeof contentEn> = {
  state: {
    error: '頁面載入失敗。',
    retry: '重試',
    notFound: '該文章不存在或已下線。',
  },
  kind: {
    news: '新聞',
    announcement: '公告',
    help: '幫助',
    about: '關於',
    security: '安全',
    benefit: '福利',
    text: '資訊',
  },
  published: '發布於 {{date}}',
  open: '前往',
  back: {
    news: '返回快訊',
    help: '返回幫助中心',
    benefits: '返回福利',
    text: '返回資訊',
  },
  news: {
    title: '快訊',
    lead: '本平台營運方發布的新聞與公告。',
    empty: '暫無新聞。',
    all: '全部',
    more: '載入更多',
  },
  help: {
    title: '幫助中心',
    lead: '常見問題解答。可以搜尋，也可以按主題瀏覽。',
    searchLabel: '搜尋幫助中心',
    searchPlaceholder: '例如：提現、身份認證',
    search: '搜尋',
    clear: '清除',
    topics: '主題',
    articles: '{{count}} 篇文章',
    noTopics: '幫助中心暫無主題。',
    empty: '該主題下暫無文章。',
    results: '「{{q}}」的搜尋結果',
    noResults: '沒有找到與「{{q}}」相關的內容，請嘗試更少或不同的關鍵詞。',
    contact: '仍需幫助？請在應用程式內聯絡客服——我們絕不會透過站外聊天軟體聯絡您。',
  },
  about: {
    title: '關於我們',
    empty: '營運方尚未編寫此頁面。',
  },
  security: {
    title: '安全提示',
    lead: '如何識別我們的工作人員和官方訊息，保護您的帳戶安全。',
    neverTitle: '我們的工作人員絕不會',
    never1: '索取您的密碼、驗證碼或身份驗證器動態碼',
    never2: '要求您向任何帳戶或地址轉帳',
    never3: '透過站外聊天軟體或私人帳號聯絡您',
    phraseTitle: '您的防釣魚碼',
    phraseText:
      '我們發給您的每一封郵件都帶有您設定的防釣魚碼。沒有防釣魚碼的郵件不是我們發的：請不要打開其中的連結。',
    phraseLink: '前往安全中心設定防釣魚碼',
  },
  benefits: {
    title: '福利',
    lead: '平台為客戶提供的福利，所有條件均明確列出。',
    empty: '目前暫無福利活動。',
  },
  text: {
    title: '資訊',
    empty: '暫無已發布的資訊。',
  },
};
