import type { Shape } from '../shape.ts';
import type { inviteEn } from './invite.en.ts';

/** The `invite` namespace, 繁體中文. */
export const inviteFt: Shape<typeof inviteEn> = {
  title: '邀請好友',
  lead: '分享您的邀請碼或連結。您邀請的好友進行現貨交易時，您將獲得其實際支付的現貨交易手續費的一部分。',
  code: '邀請碼',
  link: '邀請連結',
  copy: '複製{{what}}',
  copied: '已複製',
  qrAlt: '您的邀請連結 QR 碼 {{url}}',
  qrFailed: 'QR 碼無法產生，請複製連結。',
  notOffered: '目前不提供推薦收益（計劃已關閉，或本司法管轄區不允許）。好友仍可使用您的邀請碼註冊。',
  levels: {
    title: '我的邀請',
    level: '第 {{level}} 級',
    share: '已付手續費的 {{share}}%',
    noShare: '無分成',
    headcount: '好友',
    income: '收益',
    none: '暫無',
    total: '累計收益',
  },
  rules: {
    title: '規則說明',
    fees: '您獲得的僅是好友實際支付的現貨交易手續費的一部分（合約、期權及其他產品不產生邀請收益）。僅註冊不產生任何收益，分成絕不會超過手續費本身。',
    depthOne: '僅一級：使用您邀請碼註冊的好友。',
    depthMany: '共 {{levels}} 級：使用您邀請碼註冊的好友，以及他們繼續邀請的好友，直至第 {{levels}} 級。',
    shares: '各級分成：{{shares}}。',
    shareItem: '第 {{level}} 級 {{share}}%',
    attribution: '好友只有在使用您的邀請碼或連結註冊時才計入您的邀請，事後無法補加。',
    exclusions:
      '您自己的其他帳戶及關聯帳戶（同一裝置，或共用提現地址、銀行卡、錢包）不產生收益，相關情況由工作人員審核。',
    paid: '每筆手續費支付後不久，收益即存入您的現貨帳戶，每筆記錄均註明其來源手續費。',
  },
  invitees: {
    title: '已邀請的好友',
    uid: 'UID',
    name: '姓名',
    contact: '手機或郵箱',
    registered: '註冊時間',
    level: '級別',
    empty: '還沒有人使用您的邀請碼註冊。',
  },
  income: {
    title: '收益',
    id: '編號',
    amount: '金額',
    remark: '備註',
    time: '時間',
    empty: '暫無推薦收益。',
  },
  pager: { prev: '上一頁', next: '下一頁', page: '第 {{page}} / {{pages}} 頁' },
  error: '載入失敗：{{message}}',
  retry: '重試',
};
