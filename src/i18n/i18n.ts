import { setupI18n, type Messages } from '@lingui/core';
import type { Domain } from '../../engine/rules/i18n/catalog.ts';
import { intlTag } from '../../engine/rules/i18n/format.ts';
import { defaultLocale, dirOf, type Locale } from '../../engine/rules/i18n/locales.ts';
import { retryLoad } from '../retry-load.ts';

/**
 * The browser's one Lingui instance (docs/i18n.md). Catalogs are compiled at build time
 * (i18n/vite-catalogs.ts) and each (domain, locale) is its own chunk: only the active locale's
 * text, and only the domains the page uses, are downloaded.
 */
export const i18n = setupI18n();

type Loaders = Record<string, () => Promise<Messages>>;
const glob = {
  site: import.meta.glob<Messages>('../../engine/rules/i18n/catalogs/site/*.json', { query: '?catalog', import: 'default' }),
  legal: import.meta.glob<Messages>('../../engine/rules/i18n/catalogs/legal/*.json', { query: '?catalog', import: 'default' }),
  app: import.meta.glob<Messages>('../../engine/rules/i18n/catalogs/app/*.json', { query: '?catalog', import: 'default' }),
} satisfies Partial<Record<Domain, Loaders>>;
export type ClientDomain = keyof typeof glob;

const loaded = new Set<ClientDomain>();
const fetched = new Map<string, Promise<Messages>>();

/**
 * One compiled catalog chunk (fetched once per domain and locale; asked for again with the backoff
 * when it fails, src/retry-load.ts, and anew by the next caller after its last try).
 */
export const loadCatalog = (domain: ClientDomain, locale: Locale): Promise<Messages> => {
  const key = `${domain}/${locale}`;
  let messages = fetched.get(key);
  if (!messages) {
    const load = (glob[domain] as Loaders)[`../../engine/rules/i18n/catalogs/${domain}/${locale}.json`];
    if (!load) return Promise.reject(new Error(`no ${domain} catalog for ${locale}`));
    messages = retryLoad(load).catch((error: unknown) => {
      fetched.delete(key);
      throw error;
    });
    fetched.set(key, messages);
  }
  return messages;
};

/** Makes a domain's text available in the active locale (e.g. a lazy page's catalog). */
export const loadDomain = async (domain: ClientDomain): Promise<void> => {
  const locale = (i18n.locale || defaultLocale) as Locale;
  i18n.load(locale, await loadCatalog(domain, locale));
  loaded.add(domain);
};

/** `<html lang dir>` for the active locale, so the whole page (and CSS logical properties) follows it. */
export const applyDocumentLocale = (locale: Locale, doc: Document = document): void => {
  doc.documentElement.lang = locale;
  doc.documentElement.dir = dirOf(locale);
};

/**
 * Switches to a locale: loads every domain in use (plus `domains`) for it, then activates it, so
 * the page never renders a missing message. Intl gets Latin digits (i18n/format.ts).
 */
let switches = 0;
export const activateLocale = async (locale: Locale, domains: readonly ClientDomain[] = []): Promise<void> => {
  for (const d of domains) loaded.add(d);
  // The latest call wins: an earlier, slower catalog never switches back over a later choice.
  const ticket = ++switches;
  const catalogs = await Promise.all([...loaded].map((d) => loadCatalog(d, locale)));
  if (ticket !== switches) return;
  for (const messages of catalogs) i18n.load(locale, messages);
  i18n.activate(locale, [intlTag(locale)]);
  if (typeof document !== 'undefined') applyDocumentLocale(locale);
};
