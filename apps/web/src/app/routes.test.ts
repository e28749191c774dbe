import { catalogs } from '@bourse/i18n';
import { LANGS } from '@bourse/protocol';
import { describe, expect, it } from 'vitest';
import { ROUTES } from './routes.tsx';

/** Every route of spec section 2's table. */
const SPEC_PATHS = `/index / /market /preciousMetal /ldcoin /info /bannerDetail /login /register /forgetpwd
  /verificationCode /agrt /agreement /username /mobile /email /setting /editPassword /googleCode
  /editPasswordTrade /bindmpwd /currency /currencyRecord /currencyTrade /repayment2 /repaymentNew /credit
  /xinyongfen /subscription /subscriptionRecord /subscriptionBuy /profit_index /profit_wdtg /profit_buy
  /vip_index /vip_wdtg /etflow_buy /etf_wdtg /etflow_wdtg /asset /table1 /table2 /record /transfer /address
  /authentication /authenticationhigh /authenticationrj /authenticationcj /fengxian /sfyz /smauth /seniorauth
  /dzrz /questionnaire /wallet /walletAdd /bank /bankAdd /addcardRecord /rechargeRecord /moneyRecord
  /accountRecord /deallog /cbjl /tbjl /exchange /service /settingNew /setting-newdetail /settingHelp
  /settingHelpdetail /settingAbout /invite /notice /helpDetail /bps /kjmbSelect /c2c_index /c2c_create
  /c2c_order /c2c_submit /c2c_account /c2c_rule /404`.split(/\s+/);

/** Routes beyond the spec's table: `/proof` (proof of liabilities, issue 4), `/contractRecord` (contract records, issue 6), `/options` and `/optionRecord` (up/down options, issue 6). */
const EXTRA_PATHS = ['/proof', '/contractRecord', '/options', '/optionRecord'];
/** API keys for bots (issue 21): `/botKeys` (a path under `/api` would be the server's API). */
const BOT_PATHS = ['/botKeys'];
/** The new-coin subscription's allocation proof, checked in the browser (issue 17). */
const LAUNCHPAD_PATHS = ['/subscriptionProof'];
/** Open pages of spec 2's access list that its route table leaves out (issue 20). */
const OPEN_PAGE_PATHS = ['/userAgreement', '/downLoad'];
/** The sign-in reward's rules page, open in spec 2's access list (issue 20 item 2). */
const SIGNIN_PATHS = ['/signRule'];
/** The help centre's open pages of spec 2's access list (issue 20 item 3). */
const CONTENT_PATHS = ['/help', '/about', '/security', '/benefits', '/benefitsDetail', '/text'];

describe('route table', () => {
  it('has every route of the spec, once', () => {
    const paths = ROUTES.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect([...paths].sort()).toEqual(
      [
        ...SPEC_PATHS,
        ...EXTRA_PATHS,
        ...BOT_PATHS,
        ...LAUNCHPAD_PATHS,
        ...OPEN_PAGE_PATHS,
        ...CONTENT_PATHS,
        ...SIGNIN_PATHS,
      ].sort(),
    );
  });

  it('builds the screens of this issue and nothing else', () => {
    const built = ROUTES.filter((route) => route.built).map((route) => route.path);
    expect(built.sort()).toEqual(
      [
        '/',
        '/index',
        '/market',
        '/preciousMetal',
        '/ldcoin',
        '/info',
        '/bannerDetail',
        '/login',
        '/register',
        '/forgetpwd',
        '/agrt',
        '/agreement',
        '/setting',
        '/username',
        '/mobile',
        '/email',
        '/editPassword',
        '/verificationCode',
        '/asset',
        '/proof',
        '/address',
        '/bank',
        '/bankAdd',
        '/wallet',
        '/walletAdd',
        '/bindmpwd',
        '/editPasswordTrade',
        '/googleCode',
        '/addcardRecord',
        '/tbjl',
        '/currency',
        '/currencyRecord',
        '/currencyTrade',
        '/exchange',
        '/kjmbSelect',
        '/table1',
        '/table2',
        '/transfer',
        '/record',
        '/rechargeRecord',
        '/moneyRecord',
        '/accountRecord',
        '/deallog',
        '/cbjl',
        '/contractRecord',
        '/options',
        '/optionRecord',
        '/botKeys',
        '/sfyz',
        '/authentication',
        '/smauth',
        '/authenticationhigh',
        '/seniorauth',
        '/dzrz',
        '/authenticationrj',
        '/authenticationcj',
        '/404',
        // issue 15: the risk questionnaire (suitability)
        '/questionnaire',
        '/fengxian',
        // issue 16: fixed-term custody and VIP products (earn)
        '/profit_index',
        '/profit_buy',
        '/profit_wdtg',
        '/vip_index',
        '/vip_wdtg',
        // issue 16 point 7: ETF orders (funds)
        '/etflow_buy',
        '/etf_wdtg',
        '/etflow_wdtg',
        // issue 17: new-coin subscription (launchpad)
        '/subscription',
        '/subscriptionBuy',
        '/subscriptionRecord',
        '/subscriptionProof',
        // issue 18: loans and the credit score
        '/credit',
        '/xinyongfen',
        '/repayment2',
        '/repaymentNew',
        // issue 19: C2C
        '/c2c_index',
        '/c2c_create',
        '/c2c_order',
        '/c2c_submit',
        '/c2c_account',
        '/c2c_rule',
        // issue 20: agreements, platform documents, installing the app
        '/userAgreement',
        '/bps',
        '/downLoad',
        // issue 20 item 4: notices
        '/notice',
        // issue 20 item 6: customer service
        '/service',
        // issue 20 item 3: help centre and content
        '/settingNew',
        '/setting-newdetail',
        '/settingHelp',
        '/settingHelpdetail',
        '/settingAbout',
        '/helpDetail',
        ...CONTENT_PATHS,
        // issue 20 item 2: the sign-in reward
        ...SIGNIN_PATHS,
        // issue 20 item 1: invitations and referral income
        '/invite',
      ].sort(),
    );
    expect(ROUTES.find((route) => route.path === '/asset')?.redirect).toBe('/table1');
  });

  it('gives every route a title in every language', () => {
    for (const lang of LANGS) {
      for (const route of ROUTES)
        expect(catalogs[lang].web.route[route.title], `${lang} ${route.path}`).toBeTruthy();
    }
  });
});
