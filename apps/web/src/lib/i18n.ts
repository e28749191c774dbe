import { catalogs } from '@bourse/i18n';
import { DEFAULT_LANG, isLang, LANGS, type Lang, LOCALE_OF } from '@bourse/protocol';
import i18next from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { STORAGE_KEYS } from '../config/app.ts';
import { local } from './storage.ts';

/** The remembered language, else the browser's first English or Chinese preference, else English. */
export function detectLang(): Lang {
  const stored = local.get(STORAGE_KEYS.lang);
  if (isLang(stored)) return stored;
  const preferred = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of preferred) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return /-(tw|hk|mo|hant)\b/.test(lower) ? 'ft' : 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return DEFAULT_LANG;
}

/** The customer app's namespaces: every catalog but the back office's. */
export const WEB_NAMESPACES = [
  'web',
  'common',
  'market',
  'assets',
  'withdraw',
  'proof',
  'trade',
  'options',
  'contract',
  'suitability',
  'kyc',
  'verification',
  'profile',
  'earn',
  'funds',
  'launchpad',
  'loans',
  'c2c',
  'content',
  'support',
  'signin',
  'notice',
  'agreements',
  'invite',
] as const;

const resources = Object.fromEntries(
  LANGS.map((lang) => [lang, Object.fromEntries(WEB_NAMESPACES.map((ns) => [ns, catalogs[lang][ns]]))]),
);

/** One i18next instance: `web` for the shell, `common` for the server's reasons, one namespace per capability. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: detectLang(),
  fallbackLng: DEFAULT_LANG,
  supportedLngs: LANGS,
  ns: [...WEB_NAMESPACES],
  defaultNS: 'web',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

function applyDocumentLang(lang: string): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = isLang(lang) ? LOCALE_OF[lang] : LOCALE_OF[DEFAULT_LANG];
}

applyDocumentLang(i18n.language);
i18n.on('languageChanged', applyDocumentLang);

/** Follows a language chosen in another tab of this app (the `storage` event of its remembered choice). */
export function followOtherTabs(target: Pick<Window, 'addEventListener'>): void {
  target.addEventListener('storage', (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.lang && isLang(event.newValue) && event.newValue !== currentLang())
      void i18n.changeLanguage(event.newValue);
  });
}
if (typeof window !== 'undefined') followOtherTabs(window);

export function currentLang(): Lang {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLang(lang) ? lang : DEFAULT_LANG;
}

/** Switches the interface and remembers the choice across visits. */
export async function changeLang(lang: Lang): Promise<void> {
  local.set(STORAGE_KEYS.lang, lang);
  await i18n.changeLanguage(lang);
}

/** The current language; re-renders when it changes. */
export function useLang(): Lang {
  const { i18n: instance } = useTranslation();
  const lang = instance.resolvedLanguage ?? instance.language;
  return isLang(lang) ? lang : DEFAULT_LANG;
}
