import type { PublicConfig } from '../../engine/api-types.ts';
import { dirOf, type Locale } from '../../i18n/locales.ts';

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

/**
 * index.html for one locale: `<html lang dir>` set (docs/i18n.md), so the first paint already has
 * the reader's direction and the browser's language-dependent features (hyphenation, fonts) apply.
 */
export const localizeHtml = (html: string, locale: Locale): string =>
  html.replace(/<html\b[^>]*>/i, () => `<html lang="${locale}" dir="${dirOf(locale)}">`);
