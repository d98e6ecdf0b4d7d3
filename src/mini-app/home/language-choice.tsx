import { useLingui } from '@lingui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { UserStatus } from '../../../engine/api-types.ts';
import { isLocale, localeNames, locales, type Locale } from '../../../engine/i18n/locales.ts';
import { setLanguage } from '../api/calls.ts';
import { keys, useApi } from '../api/queries.ts';
import { appLocale, switchLocale } from '../locale.ts';
import { messages, notify } from '../messages.ts';

/**
 * The profile card's language choice (docs/i18n.md): every screen switches at once, and the server
 * remembers it (`POST /language`) so the next start is in it too. A refused save switches back.
 */
export const LanguageChoice = () => {
  const { _ } = useLingui();
  const api = useApi();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const withLanguage = (language: string | null) => (s: UserStatus | undefined) => (s ? { ...s, language } : s);

  const choose = async (locale: Locale) => {
    const previous = appLocale();
    const before = queryClient.getQueryData<UserStatus>(keys.status)?.language ?? null;
    setBusy(true);
    try {
      await switchLocale(locale);
      queryClient.setQueryData<UserStatus>(keys.status, withLanguage(locale));
      await setLanguage(api, locale);
    } catch {
      queryClient.setQueryData<UserStatus>(keys.status, withLanguage(before));
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
