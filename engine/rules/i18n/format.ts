import type { Locale } from './locales.ts';

/**
 * Numbers and dates in the reader's language (docs/i18n.md, "Numbers"). Intl follows the locale for
 * separators, month names and word order, with Latin digits (`nu-latn`) and the Gregorian calendar
 * (`ca-gregory`; Persian would default to the Solar Hijri one) in every locale, so a count or a date
 * reads the same digits as the §9 money amounts beside it and §2's roadmap months stay the same months. Money itself is never
 * formatted here: engine/rules/format.ts keeps §9's notation (K/M/B/T…, decimals) exact in every language.
 */
export const intlTag = (locale: Locale): string => `${locale}-u-ca-gregory-nu-latn`;

const numberFormats = new Map<Locale, Intl.NumberFormat>();
const monthYearFormats = new Map<Locale, Intl.DateTimeFormat>();
const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

const cached = <F>(cache: Map<Locale, F>, locale: Locale, make: () => F): F => {
  let f = cache.get(locale);
  if (!f) cache.set(locale, (f = make()));
  return f;
};

/** A plain count (a rank, players, seconds): grouping as the locale writes it. */
export const formatCount = (locale: Locale, value: number): string =>
  cached(numberFormats, locale, () => new Intl.NumberFormat(intlTag(locale))).format(value);

/** "October 2024" in the locale ("октябрь 2024 г.", "Ekim 2024"…). */
export const formatMonthYear = (locale: Locale, year: number, monthIndex: number): string =>
  cached(monthYearFormats, locale, () => new Intl.DateTimeFormat(intlTag(locale), { month: 'long', year: 'numeric', timeZone: 'UTC' })).format(
    Date.UTC(year, monthIndex, 15),
  );

/** A calendar date (e.g. a leaderboard's or a task's day), medium length. */
export const formatDate = (locale: Locale, date: Date): string =>
  cached(dateFormats, locale, () => new Intl.DateTimeFormat(intlTag(locale), { dateStyle: 'medium' })).format(date);
