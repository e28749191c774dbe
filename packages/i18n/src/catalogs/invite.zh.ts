import type { Shape } from '../shape.ts';
import type { inviteEn } from './invite.en.ts';

/** The `invite` namespace, 简体中文. */
export const inviteZh: Shape<typeof inviteEn> = {
  title: '邀请好友',
  lead: '分享您的邀请码或链接。您邀请的好友进行现货交易时，您将获得其实际支付的现货交易手续费的一部分。',
  code: '邀请码',
  link: '邀请链接',
  copy: '复制{{what}}',
  copied: '已复制',
  qrAlt: '您的邀请链接二维码 {{url}}',
  qrFailed: '二维码无法生成，请复制链接。',
  notOffered: '目前不提供推荐收益（计划已关闭，或本司法辖区不允许）。好友仍可使用您的邀请码注册。',
  levels: {
    title: '我的邀请',
    level: '第 {{level}} 级',
    share: '已付手续费的 {{share}}%',
    noShare: '无分成',
    headcount: '好友',
    income: '收益',
    none: '暂无',
    total: '累计收益',
  },
  rules: {
    title: '规则说明',
    fees: '您获得的仅是好友实际支付的现货交易手续费的一部分（合约、期权及其他产品不产生邀请收益）。仅注册不产生任何收益，分成绝不会超过手续费本身。',
    depthOne: '仅一级：使用您邀请码注册的好友。',
    depthMany: '共 {{levels}} 级：使用您邀请码注册的好友，以及他们继续邀请的好友，直至第 {{levels}} 级。',
    shares: '各级分成：{{shares}}。',
    shareItem: '第 {{level}} 级 {{share}}%',
    attribution: '好友只有在使用您的邀请码或链接注册时才计入您的邀请，事后无法补加。',
    exclusions:
      '您自己的其他账户及关联账户（同一设备，或共用提现地址、银行卡、钱包）不产生收益，相关情况由工作人员审核。',
    paid: '每笔手续费支付后不久，收益即存入您的现货账户，每条记录均注明其来源手续费。',
  },
  invitees: {
    title: '已邀请的好友',
    uid: 'UID',
    name: '姓名',
    contact: '手机或邮箱',
    registered: '注册时间',
    level: '级别',
    empty: '还没有人使用您的邀请码注册。',
  },
  income: {
    title: '收益',
    id: '编号',
    amount: '金额',
    remark: '备注',
    time: '时间',
    empty: '暂无推荐收益。',
  },
  pager: { prev: '上一页', next: '下一页', page: '第 {{page}} / {{pages}} 页' },
  error: '加载失败：{{message}}',
  retry: '重试',
};
