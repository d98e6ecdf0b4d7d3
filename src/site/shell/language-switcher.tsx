import { useLingui } from '@lingui/react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isLocale, langParam, localeNames, locales, type Locale } from '../../../engine/rules/i18n/locales.ts';
import { chooseSiteLocale, localizedHref } from '../site-locale.ts';
import './language-switcher.css';

/**
 * The header's language switcher: a native select (keyboard and screen-reader friendly) drawn as a
 * short code; choosing puts `?lang=` in the address so the page can be shared in that language.
 */
export const LanguageSwitcher = () => {
  const { i18n, _ } = useLingui();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const current = i18n.locale as Locale;
  const choose = (value: string): void => {
    if (!isLocale(value) || value === current) return;
    const params = new URLSearchParams(search);
    params.set(langParam, value);
    void chooseSiteLocale(value).then(() => navigate({ pathname, search: `?${params}` }, { replace: true }));
  };
  return (
    <label className="lang-switch">
      <span className="lang-code" aria-hidden="true">
        {current === 'pt-BR' ? 'PT' : current.toUpperCase()}
      </span>
      <select value={current} onChange={(e) => choose(e.target.value)} aria-label={_('site.shell.language')}>
        {locales.map((l) => (
          <option key={l} value={l} lang={l}>
            {localeNames[l]}
          </option>
        ))}
      </select>
    </label>
  );
};

/** `hreflang` alternates of the current page, one per language plus x-default (React puts them in <head>). */
export const AlternateLinks = () => {
  const { pathname } = useLocation();
  const origin = window.location.origin;
  return (
    <>
      {locales.map((l) => (
        <link key={l} rel="alternate" hrefLang={l} href={localizedHref(origin, pathname, l)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={localizedHref(origin, pathname, null)} />
    </>
  );
};
