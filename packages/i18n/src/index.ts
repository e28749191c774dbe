import type { Lang } from '@bourse/protocol';
import { adminEn } from './catalogs/admin.en.ts';
import { adminFt } from './catalogs/admin.ft.ts';
import { adminZh } from './catalogs/admin.zh.ts';
import { adminAgreementsEn } from './catalogs/adminAgreements.en.ts';
import { adminAgreementsFt } from './catalogs/adminAgreements.ft.ts';
import { adminAgreementsZh } from './catalogs/adminAgreements.zh.ts';
import { adminC2cEn } from './catalogs/adminC2c.en.ts';
import { adminC2cFt } from './catalogs/adminC2c.ft.ts';
import { adminC2cZh } from './catalogs/adminC2c.zh.ts';
import { adminContentEn } from './catalogs/adminContent.en.ts';
import { adminContentFt } from './catalogs/adminContent.ft.ts';
import { adminContentZh } from './catalogs/adminContent.zh.ts';
import { adminEarnEn } from './catalogs/adminEarn.en.ts';
import { adminEarnFt } from './catalogs/adminEarn.ft.ts';
import { adminEarnZh } from './catalogs/adminEarn.zh.ts';
import { adminFundsEn } from './catalogs/adminFunds.en.ts';
import { adminFundsFt } from './catalogs/adminFunds.ft.ts';
import { adminFundsZh } from './catalogs/adminFunds.zh.ts';
import { adminKycEn } from './catalogs/adminKyc.en.ts';
import { adminKycFt } from './catalogs/adminKyc.ft.ts';
import { adminKycZh } from './catalogs/adminKyc.zh.ts';
import { adminLaunchpadEn } from './catalogs/adminLaunchpad.en.ts';
import { adminLaunchpadFt } from './catalogs/adminLaunchpad.ft.ts';
import { adminLaunchpadZh } from './catalogs/adminLaunchpad.zh.ts';
import { adminLoansEn } from './catalogs/adminLoans.en.ts';
import { adminLoansFt } from './catalogs/adminLoans.ft.ts';
import { adminLoansZh } from './catalogs/adminLoans.zh.ts';
import { adminNoticeEn } from './catalogs/adminNotice.en.ts';
import { adminNoticeFt } from './catalogs/adminNotice.ft.ts';
import { adminNoticeZh } from './catalogs/adminNotice.zh.ts';
import { adminReferralEn } from './catalogs/adminReferral.en.ts';
import { adminReferralFt } from './catalogs/adminReferral.ft.ts';
import { adminReferralZh } from './catalogs/adminReferral.zh.ts';
import { adminSigninEn } from './catalogs/adminSignin.en.ts';
import { adminSigninFt } from './catalogs/adminSignin.ft.ts';
import { adminSigninZh } from './catalogs/adminSignin.zh.ts';
import { adminSupportEn } from './catalogs/adminSupport.en.ts';
import { adminSupportFt } from './catalogs/adminSupport.ft.ts';
import { adminSupportZh } from './catalogs/adminSupport.zh.ts';
import { agreementsEn } from './catalogs/agreements.en.ts';
import { agreementsFt } from './catalogs/agreements.ft.ts';
import { agreementsZh } from './catalogs/agreements.zh.ts';
import { assetsEn } from './catalogs/assets.en.ts';
import { assetsFt } from './catalogs/assets.ft.ts';
import { assetsZh } from './catalogs/assets.zh.ts';
import { c2cEn } from './catalogs/c2c.en.ts';
import { c2cFt } from './catalogs/c2c.ft.ts';
import { c2cZh } from './catalogs/c2c.zh.ts';
import { commonEn } from './catalogs/common.en.ts';
import { commonFt } from './catalogs/common.ft.ts';
import { commonZh } from './catalogs/common.zh.ts';
import { contentEn } from './catalogs/content.en.ts';
import { contentFt } from './catalogs/content.ft.ts';
import { contentZh } from './catalogs/content.zh.ts';
import { contractEn } from './catalogs/contract.en.ts';
import { contractFt } from './catalogs/contract.ft.ts';
import { contractZh } from './catalogs/contract.zh.ts';
import { earnEn } from './catalogs/earn.en.ts';
import { earnFt } from './catalogs/earn.ft.ts';
import { earnZh } from './catalogs/earn.zh.ts';
import { fundsEn } from './catalogs/funds.en.ts';
import { fundsFt } from './catalogs/funds.ft.ts';
import { fundsZh } from './catalogs/funds.zh.ts';
import { inviteEn } from './catalogs/invite.en.ts';
import { inviteFt } from './catalogs/invite.ft.ts';
import { inviteZh } from './catalogs/invite.zh.ts';
import { kycEn } from './catalogs/kyc.en.ts';
import { kycFt } from './catalogs/kyc.ft.ts';
import { kycZh } from './catalogs/kyc.zh.ts';
import { launchpadEn } from './catalogs/launchpad.en.ts';
import { launchpadFt } from './catalogs/launchpad.ft.ts';
import { launchpadZh } from './catalogs/launchpad.zh.ts';
import { loansEn } from './catalogs/loans.en.ts';
import { loansFt } from './catalogs/loans.ft.ts';
import { loansZh } from './catalogs/loans.zh.ts';
import { marketEn } from './catalogs/market.en.ts';
import { marketFt } from './catalogs/market.ft.ts';
import { marketZh } from './catalogs/market.zh.ts';
import { noticeEn } from './catalogs/notice.en.ts';
import { noticeFt } from './catalogs/notice.ft.ts';
import { noticeZh } from './catalogs/notice.zh.ts';
import { optionsEn } from './catalogs/options.en.ts';
import { optionsFt } from './catalogs/options.ft.ts';
import { optionsZh } from './catalogs/options.zh.ts';
import { profileEn } from './catalogs/profile.en.ts';
import { profileFt } from './catalogs/profile.ft.ts';
import { profileZh } from './catalogs/profile.zh.ts';
import { proofEn } from './catalogs/proof.en.ts';
import { proofFt } from './catalogs/proof.ft.ts';
import { proofZh } from './catalogs/proof.zh.ts';
import { signinEn } from './catalogs/signin.en.ts';
import { signinFt } from './catalogs/signin.ft.ts';
import { signinZh } from './catalogs/signin.zh.ts';
import { suitabilityEn } from './catalogs/suitability.en.ts';
import { suitabilityFt } from './catalogs/suitability.ft.ts';
import { suitabilityZh } from './catalogs/suitability.zh.ts';
import { supportEn } from './catalogs/support.en.ts';
import { supportFt } from './catalogs/support.ft.ts';
import { supportZh } from './catalogs/support.zh.ts';
import { tradeEn } from './catalogs/trade.en.ts';
import { tradeFt } from './catalogs/trade.ft.ts';
import { tradeZh } from './catalogs/trade.zh.ts';
import { verificationEn } from './catalogs/verification.en.ts';
import { verificationFt } from './catalogs/verification.ft.ts';
import { verificationZh } from './catalogs/verification.zh.ts';
import { webEn } from './catalogs/web.en.ts';
import { webFt } from './catalogs/web.ft.ts';
import { webZh } from './catalogs/web.zh.ts';
import { withdrawEn } from './catalogs/withdraw.en.ts';
import { withdrawFt } from './catalogs/withdraw.ft.ts';
import { withdrawZh } from './catalogs/withdraw.zh.ts';
import type { Tree } from './shape.ts';

export type { Shape, Tree } from './shape.ts';

/**
 * One catalog per language and namespace: `common` is shared with the server, `web` is the customer
 * app's shell and access screens; each capability has its own namespace (`market`, `assets`,
 * `withdraw`, `proof`) and the back office has `admin`.
 */
export const catalogs = {
  en: {
    common: commonEn,
    web: webEn,
    market: marketEn,
    assets: assetsEn,
    withdraw: withdrawEn,
    proof: proofEn,
    trade: tradeEn,
    contract: contractEn,
    options: optionsEn,
    admin: adminEn,
    verification: verificationEn,
    suitability: suitabilityEn,
    kyc: kycEn,
    adminKyc: adminKycEn,
    profile: profileEn,
    earn: earnEn,
    adminEarn: adminEarnEn,
    funds: fundsEn,
    adminFunds: adminFundsEn,
    adminLaunchpad: adminLaunchpadEn,
    adminLoans: adminLoansEn,
    adminC2c: adminC2cEn,
    launchpad: launchpadEn,
    loans: loansEn,
    c2c: c2cEn,
    content: contentEn,
    adminContent: adminContentEn,
    support: supportEn,
    adminSupport: adminSupportEn,
    signin: signinEn,
    adminSignin: adminSigninEn,
    notice: noticeEn,
    adminNotice: adminNoticeEn,
    agreements: agreementsEn,
    adminAgreements: adminAgreementsEn,
    invite: inviteEn,
    adminReferral: adminReferralEn,
  },
  zh: {
    common: commonZh,
    web: webZh,
    market: marketZh,
    assets: assetsZh,
    withdraw: withdrawZh,
    proof: proofZh,
    trade: tradeZh,
    contract: contractZh,
    options: optionsZh,
    admin: adminZh,
    verification: verificationZh,
    suitability: suitabilityZh,
    kyc: kycZh,
    adminKyc: adminKycZh,
    profile: profileZh,
    earn: earnZh,
    adminEarn: adminEarnZh,
    funds: fundsZh,
    adminFunds: adminFundsZh,
    adminLaunchpad: adminLaunchpadZh,
    adminLoans: adminLoansZh,
    adminC2c: adminC2cZh,
    launchpad: launchpadZh,
    loans: loansZh,
    c2c: c2cZh,
    content: contentZh,
    adminContent: adminContentZh,
    support: supportZh,
    adminSupport: adminSupportZh,
    signin: signinZh,
    adminSignin: adminSigninZh,
    notice: noticeZh,
    adminNotice: adminNoticeZh,
    agreements: agreementsZh,
    adminAgreements: adminAgreementsZh,
    invite: inviteZh,
    adminReferral: adminReferralZh,
  },
  ft: {
    common: commonFt,
    web: webFt,
    market: marketFt,
    assets: assetsFt,
    withdraw: withdrawFt,
    proof: proofFt,
    trade: tradeFt,
    contract: contractFt,
    options: optionsFt,
    admin: adminFt,
    verification: verificationFt,
    suitability: suitabilityFt,
    kyc: kycFt,
    adminKyc: adminKycFt,
    profile: profileFt,
    earn: earnFt,
    adminEarn: adminEarnFt,
    funds: fundsFt,
    adminFunds: adminFundsFt,
    adminLaunchpad: adminLaunchpadFt,
    adminLoans: adminLoansFt,
    adminC2c: adminC2cFt,
    launchpad: launchpadFt,
    loans: loansFt,
    c2c: c2cFt,
    content: contentFt,
    adminContent: adminContentFt,
    support: supportFt,
    adminSupport: adminSupportFt,
    signin: signinFt,
    adminSignin: adminSigninFt,
    notice: noticeFt,
    adminNotice: adminNoticeFt,
    agreements: agreementsFt,
    adminAgreements: adminAgreementsFt,
    invite: inviteFt,
    adminReferral: adminReferralFt,
  },
} as const satisfies Record<Lang, Record<string, Tree>>;

export type Namespace = keyof (typeof catalogs)['en'];
export const NAMESPACES = Object.keys(catalogs.en) as Namespace[];

/** Every key path of a tree, dot-joined: the unit the completeness test compares. */
export function keyPaths(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keyPaths(value, `${prefix}${key}.`),
  );
}

export function lookup(tree: Tree, path: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of path.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** i18next-compatible `{{name}}` interpolation, for the server's messages. */
export function interpolate(text: string, params: Readonly<Record<string, string | number>> = {}): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

export function translate(
  lang: Lang,
  key: string,
  params?: Readonly<Record<string, string | number>>,
): string {
  const text = lookup(catalogs[lang].common, key) ?? lookup(catalogs.en.common, key) ?? key;
  return interpolate(text, params);
}
export { instrumentName } from './instrumentNames.ts';
