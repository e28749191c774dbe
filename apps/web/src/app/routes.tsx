import type { catalogs } from '@bourse/i18n';
import type { ComponentType } from 'react';
import { isOpenPath } from './access.ts';

/**
 * The route table of spec section 2, area by area. `built` says whether the screen exists; every
 * route that is not built renders the one shared "not available yet" page with its own title.
 * Each screen loads on demand (route `lazy`). SCREENS.md lists the same table for readers.
 */
type WebCatalog = (typeof catalogs)['en']['web'];
export type RouteArea = keyof WebCatalog['area'];
export type RouteTitle = keyof WebCatalog['route'];

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

/** What every route carries to its screen and the layout (document title, unavailable page). */
export type RouteHandle = { title: RouteTitle };

const home = () => import('../features/home/components/HomePage.tsx').then((m) => m.HomePage);
const login = () => import('../features/auth/components/LoginPage.tsx').then((m) => m.LoginPage);
const register = () => import('../features/auth/components/RegisterPage.tsx').then((m) => m.RegisterPage);
const forgetPwd = () => import('../features/auth/components/ForgetPwdPage.tsx').then((m) => m.ForgetPwdPage);
const agreement = () =>
  import('../features/agreement/components/AgreementPage.tsx').then((m) => m.AgreementPage);
const setting = () => import('./screens/SettingScreen.tsx').then((m) => m.SettingScreen);
const notFound = () => import('../features/notfound/components/NotFoundPage.tsx').then((m) => m.NotFoundPage);
const unavailable = () => import('./screens/UnavailableScreen.tsx').then((m) => m.UnavailableScreen);

type Entry = [path: string, title: RouteTitle, load?: () => Promise<ComponentType>];

/** Rows of the spec's table; an entry without a loader is not built yet. */
const AREAS: ReadonlyArray<[RouteArea, Entry[]]> = [
  [
    'home',
    [
      ['/', 'home', home],
      ['/index', 'index', home],
      ['/market', 'market'],
      ['/preciousMetal', 'preciousMetal'],
      ['/ldcoin', 'ldcoin'],
      ['/info', 'info'],
      ['/bannerDetail', 'bannerDetail'],
    ],
  ],
  [
    'access',
    [
      ['/login', 'login', login],
      ['/register', 'register', register],
      ['/forgetpwd', 'forgetpwd', forgetPwd],
      ['/verificationCode', 'verificationCode'],
      ['/agrt', 'agrt', agreement],
      ['/agreement', 'agreement', agreement],
    ],
  ],
  [
    'profile',
    [
      ['/username', 'username'],
      ['/mobile', 'mobile'],
      ['/email', 'email'],
      ['/setting', 'setting', setting],
      ['/editPassword', 'editPassword'],
      ['/googleCode', 'googleCode'],
      ['/editPasswordTrade', 'editPasswordTrade'],
      ['/bindmpwd', 'bindmpwd'],
    ],
  ],
  [
    'spot',
    [
      ['/currency', 'currency'],
      ['/currencyRecord', 'currencyRecord'],
      ['/currencyTrade', 'currencyTrade'],
    ],
  ],
  [
    'loans',
    [
      ['/repayment2', 'repayment2'],
      ['/repaymentNew', 'repaymentNew'],
      ['/credit', 'credit'],
      ['/xinyongfen', 'xinyongfen'],
    ],
  ],
  [
    'newCoin',
    [
      ['/subscription', 'subscription'],
      ['/subscriptionRecord', 'subscriptionRecord'],
      ['/subscriptionBuy', 'subscriptionBuy'],
    ],
  ],
  [
    'earning',
    [
      ['/profit_index', 'profit_index'],
      ['/profit_wdtg', 'profit_wdtg'],
      ['/profit_buy', 'profit_buy'],
      ['/vip_index', 'vip_index'],
      ['/vip_wdtg', 'vip_wdtg'],
      ['/etflow_buy', 'etflow_buy'],
      ['/etf_wdtg', 'etf_wdtg'],
      ['/etflow_wdtg', 'etflow_wdtg'],
    ],
  ],
  [
    'assets',
    [
      ['/table1', 'table1'],
      ['/table2', 'table2'],
      ['/record', 'record'],
      ['/transfer', 'transfer'],
      ['/address', 'address'],
    ],
  ],
  [
    'verification',
    [
      ['/authentication', 'authentication'],
      ['/authenticationhigh', 'authenticationhigh'],
      ['/authenticationrj', 'authenticationrj'],
      ['/authenticationcj', 'authenticationcj'],
      ['/fengxian', 'fengxian'],
      ['/sfyz', 'sfyz'],
      ['/smauth', 'smauth'],
      ['/seniorauth', 'seniorauth'],
      ['/dzrz', 'dzrz'],
      ['/questionnaire', 'questionnaire'],
    ],
  ],
  [
    'walletBank',
    [
      ['/wallet', 'wallet'],
      ['/walletAdd', 'walletAdd'],
      ['/bank', 'bank'],
      ['/bankAdd', 'bankAdd'],
    ],
  ],
  [
    'records',
    [
      ['/addcardRecord', 'addcardRecord'],
      ['/rechargeRecord', 'rechargeRecord'],
      ['/moneyRecord', 'moneyRecord'],
      ['/accountRecord', 'accountRecord'],
      ['/deallog', 'deallog'],
      ['/cbjl', 'cbjl'],
      ['/tbjl', 'tbjl'],
    ],
  ],
  [
    'other',
    [
      ['/exchange', 'exchange'],
      ['/service', 'service'],
      ['/settingNew', 'settingNew'],
      ['/setting-newdetail', 'setting-newdetail'],
      ['/settingHelp', 'settingHelp'],
      ['/settingHelpdetail', 'settingHelpdetail'],
      ['/settingAbout', 'settingAbout'],
      ['/invite', 'invite'],
      ['/notice', 'notice'],
      ['/helpDetail', 'helpDetail'],
      ['/bps', 'bps'],
      ['/kjmbSelect', 'kjmbSelect'],
      ['/404', 'notFound', notFound],
    ],
  ],
  [
    'c2c',
    [
      ['/c2c_index', 'c2c_index'],
      ['/c2c_create', 'c2c_create'],
      ['/c2c_order', 'c2c_order'],
      ['/c2c_submit', 'c2c_submit'],
      ['/c2c_account', 'c2c_account'],
      ['/c2c_rule', 'c2c_rule'],
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
