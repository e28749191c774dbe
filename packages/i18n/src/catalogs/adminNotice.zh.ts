import type { Shape } from '../shape.ts';
import type { adminNoticeEn } from './adminNotice.en.ts';

/** The `adminNotice` namespace, 简体中文. */
export const adminNoticeZh: Shape<typeof adminNoticeEn> = {
  title: '公告',
  intro: '公告以每位客户的语言实时送达应用内。发给单个客户的消息只来自平台事件。',
  create: '新建公告',
  empty: '暂无公告。',
  failed: '加载失败。',
  retry: '重试',
  columns: {
    title: '标题',
    state: '状态',
    publishAt: '发布时间',
    created: '创建时间',
    actions: '操作',
  },
  state: {
    draft: '草稿',
    published: '已发布',
    scheduled: '定时发布',
    unpublished: '已下线',
  },
  lang: { en: '英文', zh: '简体中文', ft: '繁体中文' },
  form: {
    title: '标题（{{lang}}）',
    body: '正文（{{lang}}）',
    link: '链接（应用内路径如 /market，或 https 地址；可选）',
    preview: '预览',
    save: '保存草稿',
    cancel: '取消',
    allRequired: '请用三种语言填写标题和正文。',
  },
  publish: {
    action: '发布',
    title: '发布此公告',
    now: '立即',
    at: '定时（您的本地时间）',
    when: '发布时间',
    reason: '原因（记入审计日志）',
    confirm: '发布',
  },
  edit: {
    action: '编辑',
    title: '编辑此公告',
    reason: '修改原因（记入审计日志）',
    reasonRequired: '请说明修改原因。',
    save: '保存修改',
    onlyUnseen: '只有草稿和尚未到发布时间的公告可以修改；客户已看到的公告请下架后重新发布。',
  },
  unpublish: {
    action: '下线',
    title: '下线此公告',
    reason: '原因（记入审计日志）',
    confirm: '下线',
  },
  done: '已完成',
};
