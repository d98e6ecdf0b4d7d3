import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { isLocale, localeNames, locales, type Locale } from '../../../engine/rules/i18n/locales.ts';
import { setLanguage } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { appLocale, switchLocale } from '../locale.ts';
import { messages, notify } from '../messages.ts';

/**
 * The profile card's language choice (docs/i18n.md): every screen switches at once, and the server
 * remembers it (`POST /language`) so the next start is in it too. A refused save switches back.
 * The status the engine holds is not rewritten: its `language` is read only at start.
 */
export const LanguageChoice = () => {
  const { _ } = useLingui();
  const api = useApi();
  const [busy, setBusy] = useState(false);

  const choose = async (locale: Locale) => {
    const previous = appLocale();
    setBusy(true);
    try {
      await switchLocale(locale);
      await setLanguage(api, locale);
    } catch {
      await switchLocale(previous).catch(() => undefined);
      notify(messages.somethingWrong, 'error');
    }
    setBusy(false);
  };

  return (
    <label className="profile__language">
      <span className="hint">{_('app.profile.language')}</span>
      <select
        className="input profile__language-select"
        value={appLocale()}
        disabled={busy}
        onChange={(e) => isLocale(e.target.value) && void choose(e.target.value)}
      >
        {locales.map((l) => (
          <option key={l} value={l} lang={l}>{localeNames[l]}</option>
        ))}
      </select>
    </label>
  );
};
