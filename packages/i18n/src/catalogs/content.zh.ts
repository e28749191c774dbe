import type { Shape } from '../shape.ts';
import type { contentEn } from './content.en.ts';

/** The `content` namespace, 简体中文. */
export const contentZh: Shape<typeof contentEn> = {
  state: {
    error: '页面加载失败。',
    retry: '重试',
    notFound: '该文章不存在或已下线。',
  },
  kind: {
    news: '新闻',
    announcement: '公告',
    help: '帮助',
    about: '关于',
    security: '安全',
    benefit: '福利',
    text: '资讯',
  },
  published: '发布于 {{date}}',
  open: '前往',
  back: {
    news: '返回快讯',
    help: '返回帮助中心',
    benefits: '返回福利',
    text: '返回资讯',
  },
  news: {
    title: '快讯',
    lead: '本平台运营方发布的新闻与公告。',
    empty: '暂无新闻。',
    all: '全部',
    more: '加载更多',
  },
  help: {
    title: '帮助中心',
    lead: '常见问题解答。可以搜索，也可以按主题浏览。',
    searchLabel: '搜索帮助中心',
    searchPlaceholder: '例如：提现、身份认证',
    search: '搜索',
    clear: '清除',
    topics: '主题',
    articles: '{{count}} 篇文章',
    noTopics: '帮助中心暂无主题。',
    empty: '该主题下暂无文章。',
    results: '“{{q}}”的搜索结果',
    noResults: '没有找到与“{{q}}”相关的内容，请尝试更少或不同的关键词。',
    contact: '仍需帮助？请在应用内联系客服——我们绝不会通过站外聊天软件联系您。',
  },
  about: {
    title: '关于我们',
    empty: '运营方尚未编写此页面。',
  },
  security: {
    title: '安全提示',
    lead: '如何识别我们的工作人员和官方消息，保护您的账户安全。',
    neverTitle: '我们的工作人员绝不会',
    never1: '索要您的密码、验证码或身份验证器动态码',
    never2: '要求您向任何账户或地址转账',
    never3: '通过站外聊天软件或私人账号联系您',
    phraseTitle: '您的防钓鱼码',
    phraseText:
      '我们发给您的每一封邮件都带有您设置的防钓鱼码。没有防钓鱼码的邮件不是我们发的：请不要打开其中的链接。',
    phraseLink: '前往安全中心设置防钓鱼码',
  },
  benefits: {
    title: '福利',
    lead: '平台为客户提供的福利，所有条件均明确列出。',
    empty: '目前暂无福利活动。',
  },
  text: {
    title: '资讯',
    empty: '暂无已发布的资讯。',
  },
};
