import type { PublicConfig } from '../../engine/wire/api-types.ts';
import { dirOf, type Locale } from '../../engine/rules/i18n/locales.ts';
import { catalogText } from '../core/catalog-text.ts';

/** The marker in index.html that the server replaces with the runtime config block. */
export const configMarker = '<!--money-config-->';

/**
 * The config as a JSON data block. `<` is escaped so no value can close the script element,
 * and a data block never executes, so the CSP needs no inline-script allowance.
 */
export const configBlock = (config: PublicConfig): string => {
  const json = JSON.stringify(config).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="money-config">${json}</script>`;
};

/** index.html with the config block written in place of the marker (or before </body> without one). */
export const injectConfig = (html: string, config: PublicConfig): string => {
  const block = configBlock(config);
  if (html.includes(configMarker)) return html.replace(configMarker, () => block);
  return html.replace('</body>', () => `${block}</body>`);
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * index.html for one locale (docs/i18n.md): `<html lang dir>`, so the first paint already has the
 * reader's direction, and the landing page's title in that language for readers and crawlers that
 * run no script (each page sets its own title once it renders).
 */
export const localizeHtml = (html: string, locale: Locale): string => {
  const title = escapeHtml(catalogText('site', locale, 'site.landing.title'));
  return html
    .replace(/<html\b[^>]*>/i, () => `<html lang="${locale}" dir="${dirOf(locale)}">`)
    .replace(/<title>[^<]*<\/title>/i, () => `<title>${title}</title>`);
};
