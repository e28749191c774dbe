import type { Shape } from '../shape.ts';
import type { supportEn } from './support.en.ts';

/** The `support` namespace, 简体中文. */
export const supportZh: Shape<typeof supportEn> = {
  title: '在线客服',
  intro: '在应用内与我们的工作人员沟通。系统以您登录的账户识别您的身份。',
  safety: {
    title: '工作人员绝不会索取密码、验证码或要求转账',
    password: '我们绝不会索取您的登录密码或交易密码。',
    codes: '我们绝不会索取验证码、谷歌验证码或 API 密钥。',
    transfers: '我们绝不会要求您向任何人转账或转币。',
    outside_apps: '我们绝不会引导您到站外聊天软件：客服只在这里。',
  },
  hours: {
    title: '客服时间',
    schedule: '时间：{{hours}}',
    openNow: '客服现在在线。',
    closed: '客服现在不在线。您的消息将作为工单，于 {{next}} 起处理。',
    closedNoNext: '客服现在不在线。您的消息将作为工单，稍后处理。',
  },
  verify: {
    title: '核实工号',
    hint: '每条客服回复都显示工号。请核实它属于在职工作人员。',
    label: '工号',
    button: '核实',
    valid: '{{code}} 属于在职工作人员：{{name}}。',
    invalid: '{{code}} 不是有效的工号。请勿信任此人。',
  },
  list: {
    title: '我的会话',
    empty: '暂无会话。',
    new: '新建会话',
  },
  status: {
    open: '等待客服回复',
    pending: '等待您回复',
    resolved: '已解决',
  },
  start: {
    title: '发起会话',
    subject: '主题',
    body: '您的问题',
    ref: '关于订单 {{ref}}',
    attach: '附加图片（可选）',
    submit: '发送',
  },
  chat: {
    back: '全部会话',
    empty: '暂无消息。',
    me: '我',
    staff: '{{name}} · 工号 {{code}}',
    input: '消息',
    send: '发送',
    attach: '附加图片',
    file: '附件 {{id}}',
    ticket: '在客服时间以外发送：客服上班后回复',
    reopenHint: '在此回复会重新打开已解决的会话。',
  },
  retry: '重试',
};
