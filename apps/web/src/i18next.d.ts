import type { catalogs } from '@bourse/i18n';

/** Typed keys: `t('auth.login.title')` fails typecheck when the English catalog lacks the key. */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'web';
    returnNull: false;
    resources: {
      web: (typeof catalogs)['en']['web'];
      common: (typeof catalogs)['en']['common'];
    };
  }
}
