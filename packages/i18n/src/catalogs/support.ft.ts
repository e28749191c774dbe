import type { Shape } from '../shape.ts';
import type { supportEn } from './support.en.ts';

/** The `support` namespace, 繁體中文. */
export const supportFt: Shape<typeof supportEn> = {
  title: '線上客服',
  intro: '在應用程式內與我們的工作人員溝通。系統以您登入的帳戶識別您的身分。',
  safety: {
    title: '工作人員絕不會索取密碼、驗證碼或要求轉帳',
    password: '我們絕不會索取您的登入密碼或交易密碼。',
    codes: '我們絕不會索取驗證碼、Google 驗證碼或 API 密鑰。',
    transfers: '我們絕不會要求您向任何人轉帳或轉幣。',
    outside_apps: '我們絕不會引導您到站外聊天軟體：客服只在這裡。',
  },
  hours: {
    title: '客服時間',
    schedule: '時間：{{hours}}',
    openNow: '客服現在在線。',
    closed: '客服現在不在線。您的訊息將作為工單，於 {{next}} 起處理。',
    closedNoNext: '客服現在不在線。您的訊息將作為工單，稍後處理。',
  },
  verify: {
    title: '核實工號',
    hint: '每則客服回覆都顯示工號。請核實它屬於在職工作人員。',
    label: '工號',
    button: '核實',
    valid: '{{code}} 屬於在職工作人員：{{name}}。',
    invalid: '{{code}} 不是有效的工號。請勿信任此人。',
  },
  list: {
    title: '我的對話',
    empty: '暫無對話。',
    new: '新增對話',
  },
  status: {
    open: '等待客服回覆',
    pending: '等待您回覆',
    resolved: '已解決',
  },
  start: {
    title: '發起對話',
    subject: '主題',
    body: '您的問題',
    ref: '關於訂單 {{ref}}',
    attach: '附加圖片（可選）',
    submit: '傳送',
  },
  chat: {
    back: '全部對話',
    empty: '暫無訊息。',
    me: '我',
    staff: '{{name}} · 工號 {{code}}',
    input: '訊息',
    send: '傳送',
    attach: '附加圖片',
    file: '附件 {{id}}',
    ticket: '在客服時間以外傳送：客服上班後回覆',
    reopenHint: '在此回覆會重新開啟已解決的對話。',
  },
  retry: '重試',
};
