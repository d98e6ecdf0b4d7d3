import type { Locale } from './locales.ts';

/**
 * The catalogs (docs/i18n.md): ICU MessageFormat source, one JSON file per domain and locale under
 * engine/rules/i18n/catalogs/<domain>/<locale>.json, flat `id → message` with ids prefixed by their domain. Each
 * domain is loaded on its own so a page downloads only the text it shows, in one language.
 */
export const domains = ['site', 'legal', 'app', 'bot'] as const;
export type Domain = (typeof domains)[number];

/** A catalog as written: message id → ICU MessageFormat source. */
export type CatalogSource = Record<string, string>;

/** The path of a catalog inside the repository. */
export const catalogPath = (domain: Domain, locale: Locale): string => `engine/rules/i18n/catalogs/${domain}/${locale}.json`;
