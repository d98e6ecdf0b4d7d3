import { activateLocale } from '../i18n/i18n.ts';
import { langCookieOf, langParam, locales, pickSiteLocale, type Locale } from '../../engine/rules/i18n/locales.ts';

/**
 * The site's language (docs/i18n.md, "The site"): `?lang=`, then the `lang` cookie, then the
 * browser's languages, then English; the server applies the same rule to the HTML it sends.
 */
export const initialSiteLocale = (): Locale =>
  pickSiteLocale({
    query: new URLSearchParams(window.location.search).get(langParam),
    cookie: langCookieOf(document.cookie),
    acceptLanguage: (navigator.languages ?? [navigator.language]).join(','),
  });

/** A year, in seconds: how long the switcher's choice is remembered. */
const rememberSeconds = 365 * 24 * 60 * 60;

/** The visitor picked a language: remember it (cookie, read by the server too) and switch the page. */
export const chooseSiteLocale = async (locale: Locale): Promise<void> => {
  document.cookie = `${langParam}=${locale}; path=/; max-age=${rememberSeconds}; samesite=lax`;
  await activateLocale(locale);
};

/** The URL of a page in a language: the `?lang=` scheme (docs/i18n.md); null for the default page. */
export const localizedHref = (origin: string, pathname: string, locale: Locale | null): string =>
  locale ? `${origin}${pathname}?${langParam}=${encodeURIComponent(locale)}` : `${origin}${pathname}`;

export { locales };
