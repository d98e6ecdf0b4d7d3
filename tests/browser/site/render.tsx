import { I18nProvider } from '@lingui/react';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, vi } from 'vitest';
import type { Locale } from '../../../engine/rules/i18n/locales.ts';
import { activateLocale, i18n } from '../../../src/i18n/i18n.ts';

// Tell React that updates in these tests are wrapped in act().
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mounted: { root: Root; host: HTMLElement }[] = [];

/** Renders into a fresh element of the real document, in a language (English unless told), and returns it. */
export const render = async (ui: ReactNode, locale: Locale = 'en'): Promise<HTMLElement> => {
  await activateLocale(locale, ['site', 'legal']);
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  await act(async () => root.render(<I18nProvider i18n={i18n}>{ui}</I18nProvider>));
  mounted.push({ root, host });
  return host;
};

/** Unmounts everything render() mounted (call from afterEach). */
export const cleanup = async (): Promise<void> => {
  for (const { root, host } of mounted.splice(0)) {
    await act(async () => root.unmount());
    host.remove();
  }
};

/** Lets pending promises and React updates settle. */
export const settle = (): Promise<void> => act(async () => new Promise((r) => setTimeout(r, 0)));

/** Settles until `check` passes (at most ~5 s); unlike vi.waitFor it never advances fake timers. */
export const until = async (check: () => void): Promise<void> => {
  for (let i = 0; ; i++) {
    try {
      check();
      return;
    } catch (error) {
      if (i >= 500) throw error;
      await act(async () => new Promise((r) => setTimeout(r, 10)));
    }
  }
};

/** A page test's set-up: fetch never answers (the stats stay loading); after each test, cleanup and `after`. */
export const pageTestHooks = (after: () => void = () => {}): void => {
  beforeEach(() => {
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>(() => {})));
  });
  afterEach(async () => {
    await cleanup();
    vi.unstubAllGlobals();
    after();
  });
};
