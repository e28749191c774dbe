import type { Shape } from '../shape.ts';
import type { adminNoticeEn } from './adminNotice.en.ts';

/** The `adminNotice` namespace, 繁體中文. */
export const adminNoticeFt: Shape<typeof adminNoticeEn> = {
  title: '公告',
  intro: '公告以每位客戶的語言即時送達應用內。發給單個客戶的消息只來自平台事件。',
  create: '新建公告',
  empty: '暫無公告。',
  failed: '載入失敗。',
  retry: '重試',
  columns: {
    title: '標題',
    state: '狀態',
    publishAt: '發佈時間',
    created: '建立時間',
    actions: '操作',
  },
  state: {
    draft: '草稿',
    published: '已發佈',
    scheduled: '定時發佈',
    unpublished: '已下線',
  },
  lang: { en: '英文', zh: '簡體中文', ft: '繁體中文' },
  form: {
    title: '標題（{{lang}}）',
    body: '正文（{{lang}}）',
    link: '連結（應用內路徑如 /market，或 https 地址；可選）',
    preview: '預覽',
    save: '儲存草稿',
    cancel: '取消',
    allRequired: '請用三種語言填寫標題和正文。',
  },
  publish: {
    action: '發佈',
    title: '發佈此公告',
    now: '立即',
    at: '定時（您的本地時間）',
    when: '發佈時間',
    reason: '原因（記入審計日誌）',
    confirm: '發佈',
  },
  edit: {
    action: '編輯',
    title: '編輯此公告',
    reason: '修改原因（記入審計日誌）',
    reasonRequired: '請說明修改原因。',
    save: '保存修改',
    onlyUnseen: '只有草稿和尚未到發佈時間的公告可以修改；客戶已看到的公告請下架後重新發佈。',
  },
  unpublish: {
    action: '下線',
    title: '下線此公告',
    reason: '原因（記入審計日誌）',
    confirm: '下線',
  },
  done: '已完成',
};
