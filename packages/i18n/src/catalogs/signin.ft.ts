import type { Shape } from '../shape.ts';
import type { signinEn } from './signin.en.ts';

/** The `signin` namespace, 繁體中文. */
export const signinFt: Shape<typeof signinEn> = {
  title: '每日簽到獎勵',
  intro: '每天簽到一次。連續七天簽到，每天按所示金額以推廣贈金發放至您的現貨帳戶。',
  state: {
    on: '活動進行中。',
    off: '簽到獎勵目前已關閉。',
    budget_empty: '簽到獎勵的市場推廣預算已用完：在營運方補充預算之前無法發放獎勵。',
    profile_forbids: '此處不提供簽到獎勵：平台的司法管轄區設定不允許推廣激勵。',
  },
  budget: {
    label: '剩餘預算',
    hint: '獎勵由營運方的市場推廣預算（{{account}}）支付，絕不來自其他客戶。',
  },
  strip: {
    title: '本週簽到',
    day: '第 {{n}} 天',
    today: '今天',
    signed: '已簽到',
    next: '下一天',
  },
  condition: {
    line: '條件：{{text}}',
    label: '條件',
    none: '無條件',
  },
  action: {
    signIn: '今日簽到',
    signedToday: '今天已簽到。下一天從您當地時間 {{time}} 開始。',
    paid: '第 {{streak}} 天：{{amount}} {{currency}} 已發放至您的現貨帳戶。',
    login: '登入後簽到',
    streak: '連續簽到：{{n}} 天',
    todayEarns: '今天可得 {{amount}} {{currency}}（第 {{n}} 天）。',
  },
  verification: {
    needed: '須先完成初級身分認證才能發放獎勵。',
    verify: '立即認證',
  },
  demo: '模擬帳戶：獎勵以虛擬資金在模擬帳本中發放。',
  rules: {
    title: '規則',
    timeZone: '每天按{{zone}}的午夜至午夜計算。',
    localBoundary: '今天在您當地時間 {{time}} 結束。',
    cycle: '連續每天簽到，從第 1 天到第 7 天；第 7 天之後重新從第 1 天開始。',
    missed: '中斷一天，連續簽到重設為第 1 天。',
    once: '每天只發放一次獎勵，無論簽到多少次。',
    promo: '獎勵為推廣贈金；如有條件，會在金額旁註明。',
    budget: '獎勵僅在市場推廣預算用完之前發放；剩餘預算顯示在本頁。',
    verificationNone: '無需身分認證。',
    verificationPrimary: '須完成初級身分認證。',
  },
  entry: {
    label: '每日簽到',
    hint: '七天簽到獎勵及其規則',
  },
};
