import { catalogs } from '@bourse/i18n';
import { DEFAULT_LANG, isLang, LANGS, type Lang, LOCALE_OF } from '@bourse/protocol';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';

const LANG_KEY = 'bourse.admin.lang';

/**
 * The back office's namespaces: `admin` (its own screens), `common` (server reasons), and the
 * capability namespaces whose `admin` subtrees hold the deposit and withdrawal queues' texts.
 */
export const ADMIN_NAMESPACES = [
  'admin',
  'common',
  'assets',
  'withdraw',
  'trade',
  'adminKyc',
  'kyc',
  'verification',
  'suitability',
  'profile',
  'adminEarn',
  'adminFunds',
  'adminLaunchpad',
  'adminLoans',
  'adminC2c',
  'adminContent',
  'adminSupport',
  'adminSignin',
  'adminAgreements',
  'adminNotice',
  'adminReferral',
] as const;
export type AdminNamespace = (typeof ADMIN_NAMESPACES)[number];

function detectLang(): Lang {
  try {
    const stored = localStorage.getItem(LANG_KEY);
    if (isLang(stored)) return stored;
  } catch {}
  for (const tag of navigator.languages ?? [navigator.language]) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return /-(tw|hk|mo|hant)\b/.test(lower) ? 'ft' : 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return DEFAULT_LANG;
}

const resources = Object.fromEntries(
  LANGS.map((lang) => [lang, Object.fromEntries(ADMIN_NAMESPACES.map((ns) => [ns, catalogs[lang][ns]]))]),
);

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLang(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: LANGS,
  ns: [...ADMIN_NAMESPACES],
  defaultNS: 'admin',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function applyDocumentLang(lang: string): void {
  document.documentElement.lang = isLang(lang) ? LOCALE_OF[lang] : LOCALE_OF[DEFAULT_LANG];
}
applyDocumentLang(i18n.language);
i18n.on('languageChanged', applyDocumentLang);

/** Follows a language chosen in another tab of the back office (the `storage` event of its remembered choice). */
export function followOtherTabs(target: Pick<Window, 'addEventListener'>): void {
  target.addEventListener('storage', (event: StorageEvent) => {
    if (event.key === LANG_KEY && isLang(event.newValue) && event.newValue !== currentLang())
      void i18n.changeLanguage(event.newValue);
  });
}
followOtherTabs(window);

export function currentLang(): Lang {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLang(lang) ? lang : DEFAULT_LANG;
}

export async function changeLang(lang: Lang): Promise<void> {
  try {
    localStorage.setItem(LANG_KEY, lang);
  } catch {}
  await i18n.changeLanguage(lang);
}

export function useLang(): Lang {
  const { i18n: instance } = useTranslation();
  const lang = instance.resolvedLanguage ?? instance.language;
  return isLang(lang) ? lang : DEFAULT_LANG;
}

/** A date and time in the reader's locale. */
export function formatTime(ms: number | null | undefined, lang: Lang): string {
  if (ms === null || ms === undefined) return '—';
  return new Date(ms).toLocaleString(LOCALE_OF[lang], { hour12: false });
}
