import { i18n } from '../app/i18n.ts';

/**
 * Records every key a render asks for that the current language lacks, with the fallback language
 * switched off: a screen in zh-CN or zh-TW that would quietly show English (or the key itself)
 * shows up here as `lang:namespace:key`. `stop()` restores the app's settings.
 */
export function watchMissingKeys(): { missing: string[]; stop: () => void } {
  const missing: string[] = [];
  const options = i18n.options;
  const saved = {
    saveMissing: options.saveMissing,
    missingKeyHandler: options.missingKeyHandler,
    fallbackLng: options.fallbackLng,
  };
  options.saveMissing = true;
  options.fallbackLng = false;
  options.missingKeyHandler = (lngs, ns, key) => {
    missing.push(`${[lngs].flat().join(',')}:${ns}:${key}`);
  };
  return {
    missing,
    stop: () => Object.assign(options, saved),
  };
}
