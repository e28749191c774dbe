import type { Shape } from '../shape.ts';
import type { noticeEn } from './notice.en.ts';

/** The `notice` namespace, 繁體中文. */
export const noticeFt: Shape<typeof noticeEn> = {
  title: '消息通知',
  tabs: {
    all: '全部',
    messages: '我的消息',
    announcements: '公告',
  },
  markAll: '全部標為已讀',
  unread: '未讀',
  read: '已讀',
  open: '前往頁面',
  close: '關閉',
  empty: '暫無內容。',
  failed: '消息載入失敗。',
  retry: '重試',
  login: '登入後查看您的消息。',
  loginButton: '登入',
  more: '載入更多',
  bell: '消息通知',
  bellUnread: '消息通知，{{count}} 條未讀',
  kind: {
    security: '安全',
    withdrawal: '提現',
    deposit: '充值',
    verification: '身份認證',
    loan: '借貸',
    c2c: 'C2C',
    earn: '理財',
    launchpad: '新幣申購',
    apikey: 'API 密鑰',
    general: '帳戶',
    announcement: '公告',
  },
  prefs: {
    title: '同時通過郵件發送',
    intro: '所有消息都會保存在這裡。請選擇哪些消息同時發送到您的郵箱（沒有郵箱時通過短信發送）。',
    locked: '安全類通知（登入與密碼修改、提現、API 密鑰）始終通過郵件發送，不能關閉。',
    alwaysOn: '始終開啟',
    saved: '已儲存',
  },
  official: '官方郵件會帶有您設定的防釣魚碼。工作人員絕不會索要您的密碼、驗證碼或要求轉帳。',
};
