import type { Shape } from '../shape.ts';
import type { signinEn } from './signin.en.ts';

/** The `signin` namespace, 简体中文. */
export const signinZh: Shape<typeof signinEn> = {
  title: '每日签到奖励',
  intro: '每天签到一次。连续七天签到，每天按所示金额以推广赠金发放至您的现货账户。',
  state: {
    on: '活动进行中。',
    off: '签到奖励目前已关闭。',
    budget_empty: '签到奖励的市场推广预算已用完：在运营方补充预算之前无法发放奖励。',
    profile_forbids: '此处不提供签到奖励：平台的司法辖区配置不允许推广激励。',
  },
  budget: {
    label: '剩余预算',
    hint: '奖励由运营方的市场推广预算（{{account}}）支付，绝不来自其他客户。',
  },
  strip: {
    title: '本周签到',
    day: '第 {{n}} 天',
    today: '今天',
    signed: '已签到',
    next: '下一天',
  },
  condition: {
    line: '条件：{{text}}',
    label: '条件',
    none: '无条件',
  },
  action: {
    signIn: '今日签到',
    signedToday: '今天已签到。下一天从您当地时间 {{time}} 开始。',
    paid: '第 {{streak}} 天：{{amount}} {{currency}} 已发放至您的现货账户。',
    login: '登录后签到',
    streak: '连续签到：{{n}} 天',
    todayEarns: '今天可得 {{amount}} {{currency}}（第 {{n}} 天）。',
  },
  verification: {
    needed: '须先完成初级身份认证才能发放奖励。',
    verify: '立即认证',
  },
  demo: '模拟账户：奖励以虚拟资金在模拟账本中发放。',
  rules: {
    title: '规则',
    timeZone: '每天按{{zone}}的午夜至午夜计算。',
    localBoundary: '今天在您当地时间 {{time}} 结束。',
    cycle: '连续每天签到，从第 1 天到第 7 天；第 7 天之后重新从第 1 天开始。',
    missed: '中断一天，连续签到重置为第 1 天。',
    once: '每天只发放一次奖励，无论签到多少次。',
    promo: '奖励为推广赠金；如有条件，会在金额旁注明。',
    budget: '奖励仅在市场推广预算用完之前发放；剩余预算显示在本页。',
    verificationNone: '无需身份认证。',
    verificationPrimary: '须完成初级身份认证。',
  },
  entry: {
    label: '每日签到',
    hint: '七天签到奖励及其规则',
  },
};
