import type { Shape } from '../shape.ts';
import type { adminAgreementsEn } from './adminAgreements.en.ts';

/** The `adminAgreements` namespace, 繁體中文. */
export const adminAgreementsFt: Shape<typeof adminAgreementsEn> = {
  nav: { agreements: '協議' },
  title: '協議',
  lead: '每項協議都有編號的版本，包含三種語言。版本先以草稿撰寫並預覽，然後設定生效日期發布；每個新版本都會請客戶接受。已發布的版本不可修改。',
  kinds: {
    user: '用戶協議',
    privacy: '隱私聲明',
    risk: '風險揭露',
  },
  table: {
    version: '版本',
    status: '狀態',
    title: '標題',
    effective: '生效時間',
    published: '發布時間',
    acceptances: '接受人數',
  },
  status: {
    draft: '草稿',
    published: '已發布',
    current: '現行',
    scheduled: '待生效',
    superseded: '已被取代',
  },
  currentVersion: '現行：版本 {{version}}',
  noCurrent: '暫無現行版本',
  empty: '暫無版本。',
  failed: '協議載入失敗。',
  retry: '重試',
  loading: '載入中…',
  actions: {
    newDraft: '撰寫下一版本',
    editDraft: '編輯草稿',
    view: '檢視',
    publish: '發布',
    save: '儲存草稿',
    cancel: '取消',
    close: '關閉',
  },
  form: {
    title: '版本 {{version}} 草稿',
    titleNew: '下一版本草稿',
    titleLabel: '標題',
    summaryLabel: '變更內容（請客戶接受時顯示）',
    bodyLabel: '內文',
    bodyHint: 'Markdown：# 和 ## 為標題，段落之間空一行，- 為清單項目。HTML 將以純文字顯示。',
    preview: '預覽',
    edit: '編輯',
    langs: { en: '英文', zh: '簡體中文', ft: '繁體中文' },
    saved: '草稿已儲存。',
    required: '發布前，三種語言都需要填寫標題和內文。',
  },
  publish: {
    title: '發布版本 {{version}}',
    effectiveLabel: '生效時間',
    reasonLabel: '原因（記入稽核日誌）',
    confirm: '發布',
    note: '自該日期起，每位客戶都會被請求接受此版本。發布後不可修改；生效時間不能早於現在，也不能早於上一版本。',
    done: '版本 {{version}} 已發布。',
  },
  view: {
    title: '版本 {{version}}',
    summary: '變更內容',
  },
};
