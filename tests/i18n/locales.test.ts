import { describe, expect, it } from 'vitest';
import { formatCount, formatMonthYear } from '../../engine/rules/i18n/format.ts';
import {
  dirOf, langCookieOf, localeForAcceptLanguage, localeForLanguageCode, locales, matchLocale, pickSiteLocale,
} from '../../engine/rules/i18n/locales.ts';
import { parseRoadmapDate } from '../../engine/rules/i18n/roadmap-date.ts';

describe('locale matching', () => {
  it('maps Telegram language codes to the nine, English otherwise', () => {
    const cases: [string | undefined, string][] = [
      ['en', 'en'], ['ru', 'ru'], ['uk', 'uk'], ['fa', 'fa'], ['id', 'id'], ['in', 'id'], ['vi', 'vi'], ['tr', 'tr'],
      ['es', 'es'], ['es-419', 'es'], ['pt-br', 'pt-BR'], ['pt-BR', 'pt-BR'], ['pt', 'pt-BR'], ['pt_PT', 'pt-BR'],
      ['EN-us', 'en'], ['fa-IR', 'fa'], ['de', 'en'], ['be', 'en'], ['', 'en'], [undefined, 'en'],
    ];
    for (const [code, locale] of cases) expect(localeForLanguageCode(code), String(code)).toBe(locale);
    expect(matchLocale('de')).toBeNull();
  });

  it('reads Accept-Language by q, then order; q=0 refuses; junk is ignored', () => {
    expect(localeForAcceptLanguage('ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('ru');
    expect(localeForAcceptLanguage('de-DE, en;q=0.5, uk;q=0.9')).toBe('uk');
    expect(localeForAcceptLanguage('vi, tr')).toBe('vi');
    expect(localeForAcceptLanguage('tr;q=0, es;q=0.2')).toBe('es');
    expect(localeForAcceptLanguage('*')).toBe('en');
    expect(localeForAcceptLanguage(';;;,q=,')).toBe('en');
    expect(localeForAcceptLanguage(undefined)).toBe('en');
  });

  it('picks the site locale from ?lang=, then the cookie, then Accept-Language', () => {
    expect(pickSiteLocale({ query: 'fa', cookie: 'ru', acceptLanguage: 'id' })).toBe('fa');
    expect(pickSiteLocale({ query: 'zz', cookie: 'ru', acceptLanguage: 'id' })).toBe('ru');
    expect(pickSiteLocale({ query: null, cookie: null, acceptLanguage: 'id' })).toBe('id');
    expect(pickSiteLocale({})).toBe('en');
    expect(langCookieOf('a=1; lang=pt-BR; b=2')).toBe('pt-BR');
    expect(langCookieOf('lang=%E0%A4%A')).toBeNull();
    expect(langCookieOf(undefined)).toBeNull();
  });

  it('writes Persian right to left and the rest left to right', () => {
    expect(locales.filter((l) => dirOf(l) === 'rtl')).toEqual(['fa']);
  });
});

describe('numbers and dates', () => {
  it('follow the locale with Latin digits everywhere', () => {
    expect(formatCount('en', 1234567)).toBe('1,234,567');
    expect(formatCount('ru', 1234567)).toBe('1\u00a0234\u00a0567');
    expect(formatCount('fa', 1234567)).toMatch(/^1.234.567$/);
    expect(formatCount('fa', 1234567)).not.toMatch(/[۰-۹]/);
    expect(formatMonthYear('en', 2024, 9)).toBe('October 2024');
    expect(formatMonthYear('tr', 2024, 9)).toBe('Ekim 2024');
    expect(formatMonthYear('fa', 2024, 9)).toBe('اکتبر 2024');
  });

  it('reads the roadmap dates back into parts', () => {
    expect(parseRoadmapDate('October 2024')).toEqual({ kind: 'month', monthIndex: 9, year: 2024 });
    expect(parseRoadmapDate('2nd Quarter 2025')).toEqual({ kind: 'quarter', quarter: 2, year: 2025 });
    expect(parseRoadmapDate('Soon')).toEqual({ kind: 'text', text: 'Soon' });
  });
});
