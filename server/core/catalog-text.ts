import { readFileSync } from 'node:fs';
import { setupI18n, type I18n } from '@lingui/core';
import { catalogPath, type CatalogSource, type Domain } from '../../engine/rules/i18n/catalog.ts';
import { compileCatalog } from '../../engine/rules/i18n/compile.ts';
import { intlTag } from '../../engine/rules/i18n/format.ts';
import { locales, type Locale } from '../../engine/rules/i18n/locales.ts';

const root = new URL('../../', import.meta.url);

// The server's catalogs: each domain it uses is read and compiled once, in all nine languages, on
// first use (docs/i18n.md). The callers use it while they start (the bot's /start texts, the
// localized documents), so no request reads a file.
const instances = new Map<Domain, I18n>();
const domainI18n = (domain: Domain): I18n => {
  let i18n = instances.get(domain);
  if (i18n) return i18n;
  i18n = setupI18n();
  for (const locale of locales) {
    const source = JSON.parse(readFileSync(new URL(catalogPath(domain, locale), root), 'utf8')) as CatalogSource;
    i18n.load(locale, compileCatalog(source));
  }
  instances.set(domain, i18n);
  return i18n;
};

/** One message of a domain's catalog in a locale. */
export const catalogText = (domain: Domain, locale: Locale, id: string, values?: Record<string, unknown>): string => {
  const i18n = domainI18n(domain);
  if (i18n.locale !== locale) i18n.activate(locale, [intlTag(locale)]);
  return i18n._(id, values);
};
