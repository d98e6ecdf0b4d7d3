import { useEffect, useRef, useState } from 'react';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import type { TitleTier } from '../../engine/rules/economy.ts';
import { isLocale, localeForLanguageCode, type Locale } from '../../engine/rules/i18n/locales.ts';
import { titleCatalogId } from '../../engine/rules/titles.ts';
import { activateLocale, i18n } from '../i18n/i18n.ts';
import { telegramUser } from '../telegram.ts';

/**
 * The mini-app's language (docs/i18n.md "The mini-app"): the one chosen on the profile card and
 * remembered by the server (`status.language`), else Telegram's `language_code`, else English.
 * Only the active locale's `app` catalog is downloaded.
 */
export const startLocaleOf = (chosen: string | null | undefined, telegramCode: string | null | undefined): Locale =>
  isLocale(chosen) ? chosen : localeForLanguageCode(telegramCode);

/** The locale the mini-app shows now. */
export const appLocale = (): Locale => (isLocale(i18n.locale) ? i18n.locale : 'en');

/** Loads a locale's `app` catalog and switches every screen to it (and `<html lang dir>`). */
export const switchLocale = (locale: Locale): Promise<void> => activateLocale(locale, ['app']);

/**
 * The first guess at mount, before the status answers: Telegram's language. Falls back to English
 * if that catalog cannot be fetched, so the tree always renders.
 */
export const activateTelegramLocale = (): Promise<void> =>
  switchLocale(localeForLanguageCode(telegramUser()?.language_code)).catch(() => switchLocale('en'));

/**
 * Once the status has settled (answered or failed), switches to the player's chosen language when
 * it differs from the first guess; true when the screens may render. Only at start: later changes
 * come from the profile card, which switches by itself.
 */
export const useStartLocale = (status: UserStatus | undefined, settled: boolean): boolean => {
  const started = useRef(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!settled || started.current) return;
    started.current = true;
    const wanted = startLocaleOf(status?.language, telegramUser()?.language_code);
    if (wanted === i18n.locale) return setReady(true);
    void switchLocale(wanted)
      .catch(() => undefined)
      .finally(() => setReady(true));
  }, [status, settled]);
  return ready;
};

/** Lingui's message lookup, as `useLingui()` hands it to a component. */
export type Translate = (id: string, values?: Record<string, unknown>) => string;

/** A §2 title's name in the active language (`app.title.<camelCase name>`). */
export const titleName = (_: Translate, tier: TitleTier): string => _(titleCatalogId(tier));
