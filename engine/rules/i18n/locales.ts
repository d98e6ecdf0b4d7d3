/**
 * The languages MONEY speaks and how a visitor's or player's language is matched to one of them
 * (docs/i18n.md). Pure TypeScript: the mini-app, the site and the bot all read it.
 */
export const locales = ['en', 'ru', 'uk', 'fa', 'id', 'vi', 'tr', 'es', 'pt-BR'] as const;
export type Locale = (typeof locales)[number];

export const defaultLocale: Locale = 'en';

/** Each language's name in itself, for the switcher. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  ru: 'Русский',
  uk: 'Українська',
  fa: 'فارسی',
  id: 'Bahasa Indonesia',
  vi: 'Tiếng Việt',
  tr: 'Türkçe',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
};

const rightToLeft: ReadonlySet<Locale> = new Set<Locale>(['fa']);

/** The writing direction of a locale (the `dir` attribute). */
export const dirOf = (locale: Locale): 'ltr' | 'rtl' => (rightToLeft.has(locale) ? 'rtl' : 'ltr');

export const isLocale = (value: unknown): value is Locale => (locales as readonly unknown[]).includes(value);

// Primary language subtag → our locale. Portuguese of any region reads Brazilian Portuguese (the
// only Portuguese we have); "in" is the retired ISO code for Indonesian that old systems still send.
const byLanguage: Record<string, Locale> = {
  en: 'en', ru: 'ru', uk: 'uk', fa: 'fa', id: 'id', in: 'id', vi: 'vi', tr: 'tr', es: 'es', pt: 'pt-BR',
};

/**
 * One language tag (Telegram's `language_code`, a BCP 47 tag such as `pt-br`, `uk`, `es-419`)
 * to one of our locales, or null when we do not speak it. Case and `_` separators are tolerated.
 */
export const matchLocale = (tag: string | null | undefined): Locale | null => {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().replace(/_/g, '-').split('-')[0] ?? '';
  return byLanguage[primary] ?? null;
};

/** A player's `language_code` to a locale, English when missing or unknown (§ the mini-app and the bot). */
export const localeForLanguageCode = (code: string | null | undefined): Locale => matchLocale(code) ?? defaultLocale;

/**
 * An Accept-Language header (or navigator.languages joined with commas) to the best locale: the
 * highest q we speak, ties in the order given; q=0 refuses. English when nothing matches.
 */
export const localeForAcceptLanguage = (header: string | null | undefined): Locale => {
  if (!header) return defaultLocale;
  let best: { locale: Locale; q: number } | null = null;
  for (const part of header.slice(0, 1000).split(',')) {
    const [tag, ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const locale = matchLocale(tag);
    if (locale && Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { locale, q };
  }
  return best?.locale ?? defaultLocale;
};

/** Where a site visitor's language can come from, strongest first (docs/i18n.md, URL scheme). */
export interface LocaleHints {
  /** The `?lang=` query parameter (a link or the switcher). */
  query?: string | null;
  /** The `lang` cookie the switcher writes. */
  cookie?: string | null;
  /** Accept-Language, or the browser's languages joined with commas. */
  acceptLanguage?: string | null;
}

/** The site's locale: `?lang=`, then the `lang` cookie, then Accept-Language, then English. */
export const pickSiteLocale = ({ query, cookie, acceptLanguage }: LocaleHints): Locale =>
  matchLocale(query) ?? matchLocale(cookie) ?? localeForAcceptLanguage(acceptLanguage);

/** The query parameter and cookie that carry an explicit site language. */
export const langParam = 'lang';

/** The `lang` cookie's value out of a Cookie header (or document.cookie). */
export const langCookieOf = (cookieHeader: string | null | undefined): string | null => {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name !== langParam || !value) continue;
    try {
      return decodeURIComponent(value);
    } catch {
      return null;
    }
  }
  return null;
};
