import type { catalogs } from '@bourse/i18n';

/** Typed keys: `t('customers.title')` fails typecheck when the English catalog lacks the key. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'admin';
    returnNull: false;
    resources: {
      admin: (typeof catalogs)['en']['admin'];
      common: (typeof catalogs)['en']['common'];
      assets: (typeof catalogs)['en']['assets'];
      withdraw: (typeof catalogs)['en']['withdraw'];
      trade: (typeof catalogs)['en']['trade'];
      suitability: (typeof catalogs)['en']['suitability'];
      adminKyc: (typeof catalogs)['en']['adminKyc'];
      kyc: (typeof catalogs)['en']['kyc'];
      verification: (typeof catalogs)['en']['verification'];
      profile: (typeof catalogs)['en']['profile'];
      adminEarn: (typeof catalogs)['en']['adminEarn'];
      adminFunds: (typeof catalogs)['en']['adminFunds'];
      adminLaunchpad: (typeof catalogs)['en']['adminLaunchpad'];
      adminLoans: (typeof catalogs)['en']['adminLoans'];
      adminC2c: (typeof catalogs)['en']['adminC2c'];
      adminContent: (typeof catalogs)['en']['adminContent'];
      adminSupport: (typeof catalogs)['en']['adminSupport'];
      adminSignin: (typeof catalogs)['en']['adminSignin'];
      adminAgreements: (typeof catalogs)['en']['adminAgreements'];
      adminNotice: (typeof catalogs)['en']['adminNotice'];
      adminReferral: (typeof catalogs)['en']['adminReferral'];
    };
  }
}
