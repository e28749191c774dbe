import type { ComponentType } from 'react';
import { isOpenPath } from './access.ts';
import type { RouteArea, RouteTitle } from './routeTypes.ts';

/**
 * The route table of spec section 2, area by area. `built` says whether the screen exists; every
 * route that is not built renders the one shared "not available yet" page with its own title.
 * Each screen loads on demand (route `lazy`). SCREENS.md lists the same table for readers.
 */
export type AppRoute = {
  path: string;
  area: RouteArea;
  title: RouteTitle;
  built: boolean;
  /** Open without login (spec 2's list). */
  open: boolean;
  /** A redirect instead of a screen (`/asset` → `/table1`). */
  redirect?: string;
  /** The screen's component, loaded when the route is first visited. */
  load?: () => Promise<ComponentType>;
};

const home = () => import('./screens/HomeScreen.tsx').then((m) => m.HomeScreen);
const market = () => import('../features/market/components/MarketPage.tsx').then((m) => m.MarketPage);
const trade = () =>
  import('../features/contract/components/ContractTradePage.tsx').then((m) => m.ContractTradePage);
const contractRecords = () =>
  import('../features/contract/components/ContractRecordsPage.tsx').then((m) => m.ContractRecordsPage);
const coins = () => import('../features/market/components/CoinsPage.tsx').then((m) => m.CoinsPage);
const optionsTrade = () =>
  import('../features/options/components/OptionsPage.tsx').then((m) => m.OptionsPage);
const optionRecords = () =>
  import('../features/options/components/OptionRecordsPage.tsx').then((m) => m.OptionRecordsPage);
// ETF orders (issue 16 point 7, modules/funds): the model portfolios and my orders of each.
const etfBuy = () => import('../features/funds/components/EtfBuyPage.tsx').then((m) => m.EtfBuyPage);
const etfOrdersPages = () => import('../features/funds/components/EtfOrdersPage.tsx');
const etfBalancedOrders = () => etfOrdersPages().then((m) => m.BalancedOrdersPage);
const etfLowRiskOrders = () => etfOrdersPages().then((m) => m.LowRiskOrdersPage);
const info = () => import('../features/content/components/InfoPage.tsx').then((m) => m.InfoPage);
const bannerDetail = () =>
  import('../features/content/components/BannerDetailPage.tsx').then((m) => m.BannerDetailPage);
// Help centre and content (issue 20 item 3, the content namespace): news flash, help, about, security, benefits, texts.
const contentPages = () => import('../features/content/components/pages.ts');
const newsFlash = () => contentPages().then((m) => m.NewsFlashPage);
const newsDetail = () => contentPages().then((m) => m.NewsDetailPage);
const helpCentre = () => contentPages().then((m) => m.HelpPage);
const helpDetail = () => contentPages().then((m) => m.HelpDetailPage);
const aboutPage = () => contentPages().then((m) => m.AboutPage);
const securityPage = () => contentPages().then((m) => m.SecurityPage);
const benefitsPage = () => contentPages().then((m) => m.BenefitsPage);
const benefitDetail = () => contentPages().then((m) => m.BenefitDetailPage);
const textPage = () => contentPages().then((m) => m.TextPage);
const login = () => import('../features/auth/components/LoginPage.tsx').then((m) => m.LoginPage);
const register = () => import('../features/auth/components/RegisterPage.tsx').then((m) => m.RegisterPage);
const forgetPwd = () => import('../features/auth/components/ForgetPwdPage.tsx').then((m) => m.ForgetPwdPage);
const agreement = () =>
  import('../features/agreement/components/AgreementPage.tsx').then((m) => m.AgreementPage);
// Issue 20: platform documents (agreements in force and my acceptance) and installing the app.
const documents = () =>
  import('../features/agreement/components/DocumentsPage.tsx').then((m) => m.DocumentsPage);
const download = () => import('../features/download/components/DownloadPage.tsx').then((m) => m.DownloadPage);
const setting = () => import('./screens/SettingScreen.tsx').then((m) => m.SettingScreen);
// Profile and security centre (the profile namespace).
const profilePages = () => import('../features/profile/components/ContactPage.tsx');
const usernamePage = () =>
  import('../features/profile/components/UsernamePage.tsx').then((m) => m.UsernamePage);
const mobilePage = () => profilePages().then((m) => m.MobilePage);
const emailPage = () => profilePages().then((m) => m.EmailPage);
const verificationCode = () =>
  import('../features/profile/components/VerificationCodePage.tsx').then((m) => m.VerificationCodePage);
const editPassword = () =>
  import('../features/auth/components/EditPasswordPage.tsx').then((m) => m.EditPasswordPage);
const apiKeys = () => import('../features/apikeys/components/ApiKeysPage.tsx').then((m) => m.ApiKeysPage);
const notFound = () => import('../features/notfound/components/NotFoundPage.tsx').then((m) => m.NotFoundPage);
const unavailable = () => import('./screens/UnavailableScreen.tsx').then((m) => m.UnavailableScreen);
const proof = () => import('../features/proof/components/ProofPage.tsx').then((m) => m.ProofPage);
const spotMarkets = () =>
  import('../features/spot/components/SpotMarketsPage.tsx').then((m) => m.SpotMarketsPage);
const spotRecords = () =>
  import('../features/spot/components/SpotRecordsPage.tsx').then((m) => m.SpotRecordsPage);
const spotTrade = () => import('../features/spot/components/SpotTradePage.tsx').then((m) => m.SpotTradePage);
const exchange = () => import('../features/exchange/ExchangePage.tsx').then((m) => m.ExchangePage);
const quickBuy = () => import('../features/quickBuy/QuickBuyPage.tsx').then((m) => m.QuickBuyPage);
// Risk questionnaire and my risk assessment (issue 15, the suitability namespace).
const suitabilityPages = () => import('../features/suitability/components/pages.ts');
const questionnaire = () => suitabilityPages().then((m) => m.QuestionnairePage);
const fengxian = () => suitabilityPages().then((m) => m.RiskAssessmentPage);

// Withdrawals, address book, bank cards, wallets, trade password (the withdraw namespace).
const tradePages = () => import('../features/tradePassword/components/TradePasswordPages.tsx');
const bindmpwd = () => tradePages().then((m) => m.BindTradePasswordPage);
const editPasswordTrade = () => tradePages().then((m) => m.EditTradePasswordPage);
const googleCode = () => tradePages().then((m) => m.GoogleCodePage);
const addressBook = () => import('../features/address/components/AddressPage.tsx').then((m) => m.AddressPage);
const bankPages = () => import('../features/bank/components/BankPage.tsx');
const bankList = () => bankPages().then((m) => m.BankPage);
const bankAdd = () => bankPages().then((m) => m.BankAddPage);
const walletPages = () => import('../features/wallet/components/WalletPage.tsx');
const walletList = () => walletPages().then((m) => m.WalletPage);
const walletAdd = () => walletPages().then((m) => m.WalletAddPage);
const withdrawRecords = () => import('../features/withdraw/components/RecordsPage.tsx');
const tbjl = () => withdrawRecords().then((m) => m.TbjlPage);
const addcardRecord = () => withdrawRecords().then((m) => m.AddcardRecordPage);
const assetScreens = () => import('./screens/AssetScreens.tsx');
const assetOverview = () => assetScreens().then((m) => m.AssetOverviewScreen);
const assetAccounts = () => assetScreens().then((m) => m.AccountsScreen);
const assetTransfer = () =>
  import('../features/assets/components/TransferPage.tsx').then((m) => m.TransferPage);
const recordPages = () => import('../features/records/components/RecordPages.tsx');
const recordAll = () => recordPages().then((m) => m.RecordPage);
const recordMoney = () => recordPages().then((m) => m.MoneyRecordPage);
const recordAccount = () => recordPages().then((m) => m.AccountRecordPage);
const recordDeal = () => recordPages().then((m) => m.DealLogPage);
const recordRecharge = () => recordPages().then((m) => m.RechargeRecordPage);

// Identity verification (issue 15): the centre, the three tiers' forms, what deposit and withdrawal need.
const verificationCentre = () =>
  import('../features/verification/components/CentrePage.tsx').then((m) => m.CentrePage);
const verificationPrimary = () =>
  import('../features/verification/components/PrimaryPage.tsx').then((m) => m.PrimaryPage);
const verificationAdvanced = () =>
  import('../features/verification/components/AdvancedPage.tsx').then((m) => m.AdvancedPage);
const verificationAddress = () =>
  import('../features/verification/components/AddressPage.tsx').then((m) => m.AddressPage);
const requirementPages = () => import('../features/verification/components/RequirementPage.tsx');
const depositRequirement = () => requirementPages().then((m) => m.DepositRequirementPage);
const withdrawRequirement = () => requirementPages().then((m) => m.WithdrawRequirementPage);

// Earn: fixed-term custody and VIP products, my orders, early redemption (issue 16, the earn namespace).
const earnPages = () => import('../features/earn/components/pages.ts');
const profitIndex = () => earnPages().then((m) => m.CustodyIndexPage);
const profitBuy = () => earnPages().then((m) => m.BuyPage);
const profitOrders = () => earnPages().then((m) => m.CustodyOrdersPage);
const vipIndex = () => earnPages().then((m) => m.VipIndexPage);
const vipOrders = () => earnPages().then((m) => m.VipOrdersPage);

// New-coin subscription (issue 17, the launchpad namespace): projects, a project and subscribing, my
// subscriptions, and my allocation checked in the browser.
const launchpadPages = () => import('../features/launchpad/components/pages.ts');
const launchpadList = () => launchpadPages().then((m) => m.ProjectListPage);
const launchpadProject = () => launchpadPages().then((m) => m.ProjectPage);
const launchpadRecords = () => launchpadPages().then((m) => m.RecordsPage);
const launchpadProof = () => launchpadPages().then((m) => m.ProofPage);

// Loans and the credit score (issue 18, the loans namespace): the score, applying, my loans, one loan
// with its schedule and repaying.
const loanPages = () => import('../features/loans/components/pages.ts');
const loanScore = () => loanPages().then((m) => m.ScorePage);
const loanApply = () => loanPages().then((m) => m.ApplyPage);
const loanList = () => loanPages().then((m) => m.LoansPage);
const loanDetail = () => loanPages().then((m) => m.LoanPage);

// Invitations (issue 20 item 1, the invite namespace): code, link, QR, levels, invitees, referral income.
const invitePage = () => import('../features/invite/components/InvitePage.tsx').then((m) => m.InvitePage);

// Notices (issue 20 item 4, the notice namespace): messages, announcements, e-mail choices.
const noticePage = () => import('../features/notice/components/NoticePage.tsx').then((m) => m.NoticePage);

// The seven-day sign-in reward (issue 20 item 2, the signin namespace): the strip, signing in, the rules.
const signRule = () => import('../features/signin/components/SignRulePage.tsx').then((m) => m.SignRulePage);

// C2C (issue 19, the c2c namespace): offers, ordering, my orders, one order (pay, confirm, dispute,
// chat), my collection accounts and the rules.
// Customer service (issue 20 item 6, the support namespace): conversations with staff, live replies.
const service = () => import('../features/support/components/ServicePage.tsx').then((m) => m.ServicePage);
const c2cPages = () => import('../features/c2c/components/pages.ts');
const c2cOffers = () => c2cPages().then((m) => m.OffersPage);
const c2cCreate = () => c2cPages().then((m) => m.CreatePage);
const c2cOrders = () => c2cPages().then((m) => m.OrdersPage);
const c2cOrder = () => c2cPages().then((m) => m.OrderPage);
const c2cAccounts = () => c2cPages().then((m) => m.AccountsPage);
const c2cRules = () => c2cPages().then((m) => m.RulesPage);

type Entry = [path: string, title: RouteTitle, load?: () => Promise<ComponentType>];

/** Rows of the spec's table; an entry without a loader is not built yet. */
const AREAS: ReadonlyArray<[RouteArea, Entry[]]> = [
  [
    'home',
    [
      ['/', 'home', home],
      ['/index', 'index', home],
      ['/market', 'market', market],
      ['/preciousMetal', 'preciousMetal', trade],
      ['/options', 'options', optionsTrade],
      ['/ldcoin', 'ldcoin', coins],
      ['/info', 'info', info],
      ['/bannerDetail', 'bannerDetail', bannerDetail],
    ],
  ],
  [
    'access',
    [
      ['/login', 'login', login],
      ['/register', 'register', register],
      ['/forgetpwd', 'forgetpwd', forgetPwd],
      ['/verificationCode', 'verificationCode', verificationCode],
      ['/agrt', 'agrt', agreement],
      ['/agreement', 'agreement', agreement],
      ['/userAgreement', 'userAgreement', agreement],
    ],
  ],
  [
    'profile',
    [
      ['/username', 'username', usernamePage],
      ['/mobile', 'mobile', mobilePage],
      ['/email', 'email', emailPage],
      ['/setting', 'setting', setting],
      ['/editPassword', 'editPassword', editPassword],
      ['/googleCode', 'googleCode', googleCode],
      ['/editPasswordTrade', 'editPasswordTrade', editPasswordTrade],
      ['/bindmpwd', 'bindmpwd', bindmpwd],
      ['/botKeys', 'apiKeys', apiKeys],
    ],
  ],
  [
    'spot',
    [
      ['/currency', 'currency', spotMarkets],
      ['/currencyRecord', 'currencyRecord', spotRecords],
      ['/currencyTrade', 'currencyTrade', spotTrade],
    ],
  ],
  [
    'loans',
    [
      ['/repayment2', 'repayment2', loanList],
      ['/repaymentNew', 'repaymentNew', loanDetail],
      ['/credit', 'credit', loanApply],
      ['/xinyongfen', 'xinyongfen', loanScore],
    ],
  ],
  [
    'newCoin',
    [
      ['/subscription', 'subscription', launchpadList],
      ['/subscriptionRecord', 'subscriptionRecord', launchpadRecords],
      ['/subscriptionBuy', 'subscriptionBuy', launchpadProject],
      ['/subscriptionProof', 'subscriptionProof', launchpadProof],
    ],
  ],
  [
    'earning',
    [
      ['/profit_index', 'profit_index', profitIndex],
      ['/profit_wdtg', 'profit_wdtg', profitOrders],
      ['/profit_buy', 'profit_buy', profitBuy],
      ['/vip_index', 'vip_index', vipIndex],
      ['/vip_wdtg', 'vip_wdtg', vipOrders],
      ['/etflow_buy', 'etflow_buy', etfBuy],
      ['/etf_wdtg', 'etf_wdtg', etfBalancedOrders],
      ['/etflow_wdtg', 'etflow_wdtg', etfLowRiskOrders],
    ],
  ],
  [
    'assets',
    [
      ['/table1', 'table1', assetOverview],
      ['/table2', 'table2', assetAccounts],
      ['/record', 'record', recordAll],
      ['/transfer', 'transfer', assetTransfer],
      ['/address', 'address', addressBook],
      ['/proof', 'proof', proof],
    ],
  ],
  [
    'verification',
    [
      ['/authentication', 'authentication', verificationPrimary],
      ['/authenticationhigh', 'authenticationhigh', verificationAdvanced],
      ['/authenticationrj', 'authenticationrj', depositRequirement],
      ['/authenticationcj', 'authenticationcj', withdrawRequirement],
      ['/fengxian', 'fengxian', fengxian],
      ['/sfyz', 'sfyz', verificationCentre],
      ['/smauth', 'smauth', verificationPrimary],
      ['/seniorauth', 'seniorauth', verificationAdvanced],
      ['/dzrz', 'dzrz', verificationAddress],
      ['/questionnaire', 'questionnaire', questionnaire],
    ],
  ],
  [
    'walletBank',
    [
      ['/wallet', 'wallet', walletList],
      ['/walletAdd', 'walletAdd', walletAdd],
      ['/bank', 'bank', bankList],
      ['/bankAdd', 'bankAdd', bankAdd],
    ],
  ],
  [
    'records',
    [
      ['/addcardRecord', 'addcardRecord', addcardRecord],
      ['/rechargeRecord', 'rechargeRecord', recordRecharge],
      ['/moneyRecord', 'moneyRecord', recordMoney],
      ['/accountRecord', 'accountRecord', recordAccount],
      ['/deallog', 'deallog', recordDeal],
      ['/cbjl', 'cbjl', recordRecharge],
      ['/tbjl', 'tbjl', tbjl],
      ['/optionRecord', 'optionRecord', optionRecords],
      ['/contractRecord', 'contractRecord', contractRecords],
    ],
  ],
  [
    'other',
    [
      ['/exchange', 'exchange', exchange],
      ['/service', 'service', service],
      ['/signRule', 'signRule', signRule],
      ['/settingNew', 'settingNew', newsFlash],
      ['/setting-newdetail', 'setting-newdetail', newsDetail],
      ['/settingHelp', 'settingHelp', helpCentre],
      ['/settingHelpdetail', 'settingHelpdetail', helpDetail],
      ['/settingAbout', 'settingAbout', aboutPage],
      ['/invite', 'invite', invitePage],
      ['/notice', 'notice', noticePage],
      ['/helpDetail', 'helpDetail', helpDetail],
      ['/help', 'help', helpCentre],
      ['/about', 'about', aboutPage],
      ['/security', 'security', securityPage],
      ['/benefits', 'benefits', benefitsPage],
      ['/benefitsDetail', 'benefitsDetail', benefitDetail],
      ['/text', 'text', textPage],
      ['/bps', 'bps', documents],
      ['/downLoad', 'downLoad', download],
      ['/kjmbSelect', 'kjmbSelect', quickBuy],
      ['/404', 'notFound', notFound],
    ],
  ],
  [
    'c2c',
    [
      ['/c2c_index', 'c2c_index', c2cOffers],
      ['/c2c_create', 'c2c_create', c2cCreate],
      ['/c2c_order', 'c2c_order', c2cOrders],
      ['/c2c_submit', 'c2c_submit', c2cOrder],
      ['/c2c_account', 'c2c_account', c2cAccounts],
      ['/c2c_rule', 'c2c_rule', c2cRules],
    ],
  ],
];

/** `/asset` is a redirect in the assets area (spec 2). */
const REDIRECTS: readonly AppRoute[] = [
  { path: '/asset', area: 'assets', title: 'asset', built: true, open: false, redirect: '/table1' },
];

export const ROUTES: readonly AppRoute[] = [
  ...AREAS.flatMap(([area, entries]) =>
    entries.map(([path, title, load]): AppRoute => {
      const route: AppRoute = { path, area, title, built: load !== undefined, open: isOpenPath(path) };
      route.load = load ?? unavailable;
      return route;
    }),
  ),
  ...REDIRECTS,
];

/** Any path outside the table. */
export const CATCH_ALL: AppRoute = {
  path: '*',
  area: 'other',
  title: 'notFound',
  built: true,
  open: false,
  load: notFound,
};
