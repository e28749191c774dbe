import type { Shape } from '../shape.ts';
import type { adminAgreementsEn } from './adminAgreements.en.ts';

/** The `adminAgreements` namespace, 简体中文. */
export const adminAgreementsZh: Shape<typeof adminAgreementsEn> = {
  nav: { agreements: '协议' },
  title: '协议',
  lead: '每项协议都有编号的版本，包含三种语言。版本先以草稿撰写并预览，然后设定生效日期发布；每个新版本都会请客户接受。已发布的版本不可修改。',
  kinds: {
    user: '用户协议',
    privacy: '隐私声明',
    risk: '风险披露',
  },
  table: {
    version: '版本',
    status: '状态',
    title: '标题',
    effective: '生效时间',
    published: '发布时间',
    acceptances: '接受人数',
  },
  status: {
    draft: '草稿',
    published: '已发布',
    current: '现行',
    scheduled: '待生效',
    superseded: '已被取代',
  },
  currentVersion: '现行：版本 {{version}}',
  noCurrent: '暂无现行版本',
  empty: '暂无版本。',
  failed: '协议加载失败。',
  retry: '重试',
  loading: '加载中…',
  actions: {
    newDraft: '撰写下一版本',
    editDraft: '编辑草稿',
    view: '查看',
    publish: '发布',
    save: '保存草稿',
    cancel: '取消',
    close: '关闭',
  },
  form: {
    title: '版本 {{version}} 草稿',
    titleNew: '下一版本草稿',
    titleLabel: '标题',
    summaryLabel: '变更内容（请客户接受时显示）',
    bodyLabel: '正文',
    bodyHint: 'Markdown：# 和 ## 为标题，段落之间空一行，- 为列表项。HTML 将按纯文本显示。',
    preview: '预览',
    edit: '编辑',
    langs: { en: '英文', zh: '简体中文', ft: '繁体中文' },
    saved: '草稿已保存。',
    required: '发布前，三种语言都需要填写标题和正文。',
  },
  publish: {
    title: '发布版本 {{version}}',
    effectiveLabel: '生效时间',
    reasonLabel: '原因（记入审计日志）',
    confirm: '发布',
    note: '自该日期起，每位客户都会被请求接受此版本。发布后不可修改；生效时间不能早于现在，也不能早于上一版本。',
    done: '版本 {{version}} 已发布。',
  },
  view: {
    title: '版本 {{version}}',
    summary: '变更内容',
  },
};
