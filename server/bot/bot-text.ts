import { readFileSync } from 'node:fs';
import { setupI18n, type I18n } from '@lingui/core';
import { catalogPath, type CatalogSource } from '../../i18n/catalog.ts';
import { compileCatalog } from '../../i18n/compile.ts';
import { intlTag } from '../../i18n/format.ts';
import { localeForLanguageCode, locales, type Locale } from '../../i18n/locales.ts';

const root = new URL('../../', import.meta.url);

// The bot's catalogs are a few lines each: all nine are compiled once, at start-up (docs/i18n.md).
let instance: I18n | undefined;
const botI18n = (): I18n => {
  if (instance) return instance;
  const i18n = setupI18n();
  for (const locale of locales) {
    const source = JSON.parse(readFileSync(new URL(catalogPath('bot', locale), root), 'utf8')) as CatalogSource;
    i18n.load(locale, compileCatalog(source));
  }
  return (instance = i18n);
};

/** A bot message in a player's language (Telegram's `language_code`; English when missing or unknown). */
export const botText = (languageCode: string | undefined, id: string, values?: Record<string, unknown>): string => {
  const locale: Locale = localeForLanguageCode(languageCode);
  const i18n = botI18n();
  if (i18n.locale !== locale) i18n.activate(locale, [intlTag(locale)]);
  return i18n._(id, values);
};
