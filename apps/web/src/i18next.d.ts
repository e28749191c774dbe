import type { catalogs } from '@bourse/i18n';

/** Typed keys: `t('auth.login.title')` fails typecheck when the English catalog lacks the key. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'web';
    returnNull: false;
    resources: {
      web: (typeof catalogs)['en']['web'];
      common: (typeof catalogs)['en']['common'];
      market: (typeof catalogs)['en']['market'];
      assets: (typeof catalogs)['en']['assets'];
      withdraw: (typeof catalogs)['en']['withdraw'];
      proof: (typeof catalogs)['en']['proof'];
      trade: (typeof catalogs)['en']['trade'];
      contract: (typeof catalogs)['en']['contract'];
      options: (typeof catalogs)['en']['options'];
      suitability: (typeof catalogs)['en']['suitability'];
      kyc: (typeof catalogs)['en']['kyc'];
      verification: (typeof catalogs)['en']['verification'];
      profile: (typeof catalogs)['en']['profile'];
      earn: (typeof catalogs)['en']['earn'];
      funds: (typeof catalogs)['en']['funds'];
      launchpad: (typeof catalogs)['en']['launchpad'];
      loans: (typeof catalogs)['en']['loans'];
      c2c: (typeof catalogs)['en']['c2c'];
      content: (typeof catalogs)['en']['content'];
      support: (typeof catalogs)['en']['support'];
      signin: (typeof catalogs)['en']['signin'];
      notice: (typeof catalogs)['en']['notice'];
      agreements: (typeof catalogs)['en']['agreements'];
      invite: (typeof catalogs)['en']['invite'];
    };
  }
}
