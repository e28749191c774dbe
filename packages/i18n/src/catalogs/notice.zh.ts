import type { Shape } from '../shape.ts';
import type { noticeEn } from './notice.en.ts';

/** The `notice` namespace, 简体中文. */
export const noticeZh: Shape<typeof noticeEn> = {
  title: '消息通知',
  tabs: {
    all: '全部',
    messages: '我的消息',
    announcements: '公告',
  },
  markAll: '全部标为已读',
  unread: '未读',
  read: '已读',
  open: '前往页面',
  close: '关闭',
  empty: '暂无内容。',
  failed: '消息加载失败。',
  retry: '重试',
  login: '登录后查看您的消息。',
  loginButton: '登录',
  more: '加载更多',
  bell: '消息通知',
  bellUnread: '消息通知，{{count}} 条未读',
  kind: {
    security: '安全',
    withdrawal: '提现',
    deposit: '充值',
    verification: '身份认证',
    loan: '借贷',
    c2c: 'C2C',
    earn: '理财',
    launchpad: '新币申购',
    apikey: 'API 密钥',
    general: '账户',
    announcement: '公告',
  },
  prefs: {
    title: '同时通过邮件发送',
    intro: '所有消息都会保存在这里。请选择哪些消息同时发送到您的邮箱（没有邮箱时通过短信发送）。',
    locked: '安全类通知（登录与密码修改、提现、API 密钥）始终通过邮件发送，不能关闭。',
    alwaysOn: '始终开启',
    saved: '已保存',
  },
  official: '官方邮件会带有您设置的防钓鱼码。工作人员绝不会索要您的密码、验证码或要求转账。',
};
