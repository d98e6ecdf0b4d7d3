import { I18nProvider } from '@lingui/react';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, vi } from 'vitest';
import { apiPrefix } from '../../../engine/wire/api-types.ts';
import { createFetchTransport } from '../../../engine/client/adapters/fetch-transport.ts';
import { MemoryTapStore } from '../../../engine/client/adapters/memory-tap-store.ts';
import { randomId, realClock, realScheduler } from '../../../engine/client/adapters/real-time.ts';
import { Engine } from '../../../engine/client/engine.ts';
import * as signals from '../../../src/engine-client/signals.ts';
import { applySnapshot, applyStatus } from '../../../src/engine-client/bridge.ts';
import { activateLocale, i18n } from '../../../src/i18n/i18n.ts';
import { createApiClient } from '../../../src/mini-app/api/client.ts';
import { createQueryClient, Providers } from '../../../src/mini-app/providers.tsx';
import { routes } from '../../../src/mini-app/routes.tsx';
import '../../../src/mini-app/styles/base.css';
import { createFakeState, fakeFetch, type FakeApiState } from './fake-api.ts';

// Tell React this is a test environment, so act() flushes updates without warnings.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Snapshots go into the UI's signals through the bridge's own writer, as in the app. */
const writeSignals = applySnapshot;

export interface Mounted {
  state: FakeApiState;
  engine: Engine;
  host: HTMLElement;
  router: ReturnType<typeof createMemoryRouter>;
}

let current: { root: Root; host: HTMLElement; engine: Engine } | null = null;

/**
 * Mounts the mini-app's real route table at `path`, over the real game engine (in the page, not a
 * worker) and the real API client, both talking to the fake HTTP API. The app starts in English,
 * as app.tsx does for a player whose Telegram language is English; the shell then switches to
 * `status.language` when the player chose one (docs/i18n.md).
 */
export const mountApp = async (path = '/', over: Partial<FakeApiState> = {}, wrap: (app: ReactNode) => ReactNode = (app) => app): Promise<Mounted> => {
  await cleanup();
  await activateLocale('en', ['app']);
  const state = createFakeState(over);
  const fetch = fakeFetch(state) as typeof globalThis.fetch;
  const initData = 'query_id=test&user=%7B%22id%22%3A5001%7D&auth_date=1&hash=abc';
  const engine = new Engine({
    clock: realClock,
    scheduler: realScheduler,
    transport: createFetchTransport({ apiBase: apiPrefix, initData, fetch }),
    store: new MemoryTapStore(),
    newId: randomId,
  });
  writeSignals(signals.emptySnapshot);
  applyStatus(signals.noStatus);
  engine.subscribe(writeSignals);
  engine.subscribeStatus(applyStatus);
  // A status that hangs or fails is the page's to show (boot screen, step 1's error): start without waiting.
  const started = engine.start().catch(() => undefined);
  if (!state.hang.includes('') && !state.failures['']) await started;
  const api = createApiClient({ apiBase: apiPrefix, initData, fetch });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  await act(async () => {
    root.render(
      <I18nProvider i18n={i18n}>
        <Providers api={api} engine={engine} queryClient={createQueryClient()}>
          {wrap(<RouterProvider router={router} />)}
        </Providers>
      </I18nProvider>,
    );
  });
  current = { root, host, engine };
  return { state, engine, host, router };
};

/**
 * For the tests of one file: `window.open` opens nothing and records each URL in the returned
 * list, emptied before every test.
 */
export const recordOpenedLinks = (): string[] => {
  const opened: string[] = [];
  beforeEach(() => {
    opened.length = 0;
    vi.spyOn(window, 'open').mockImplementation((url) => {
      opened.push(String(url));
      return null;
    });
  });
  afterEach(() => vi.restoreAllMocks());
  return opened;
};

export const cleanup = async (): Promise<void> => {
  if (!current) return;
  const { root, host, engine } = current;
  current = null;
  engine.stop();
  await act(async () => root.unmount());
  host.remove();
  localStorage.clear();
  sessionStorage.clear();
};

const text = () => document.body.textContent ?? '';

/** Waits until the page shows `wanted` (a toast, a label…). */
export const findText = async (wanted: string | RegExp, timeout = 4_000): Promise<void> =>
  vi.waitFor(() => {
    const t = text();
    if (typeof wanted === 'string' ? !t.includes(wanted) : !wanted.test(t)) throw new Error(`"${wanted}" not shown`);
  }, { timeout, interval: 20 });

/** Waits for an element matching `selector` (optionally with some text) and returns it. */
export const find = async <T extends Element = HTMLElement>(selector: string, withText?: string, timeout = 4_000): Promise<T> =>
  vi.waitFor(() => {
    const el = [...document.querySelectorAll<T>(selector)].find((e) => withText === undefined || (e.textContent ?? '').includes(withText));
    if (!el) throw new Error(`${selector} ${withText ?? ''} not found`);
    return el;
  }, { timeout, interval: 20 });

/**
 * A button by its visible text or aria-label, once its screen's effects have run: a lazy screen
 * (home too) commits outside act(), and a test pressing at once would beat its listeners.
 */
export const button = async (label: string, timeout?: number): Promise<HTMLButtonElement> => {
  const el = await vi.waitFor(() => {
    const found = [...document.querySelectorAll<HTMLButtonElement>('button')].find(
      (b) => b.textContent?.trim() === label || b.getAttribute('aria-label') === label,
    );
    if (!found) throw new Error(`button ${label} not found`);
    return found;
  }, { timeout: timeout ?? 4_000, interval: 20 });
  await act(async () => undefined);
  return el;
};

export const click = async (el: HTMLElement): Promise<void> => {
  await act(async () => el.click());
};

/** One pointer event on `target` (the coin counts a tap per `pointerdown` per pointerId). */
export const pointer = async (target: Element, type: 'pointerdown' | 'pointerup', pointerId: number): Promise<void> =>
  act(async () => {
    target.dispatchEvent(new PointerEvent(type, { pointerId, bubbles: true, clientX: 150, clientY: 150 }));
  });

export const typeInto = async (input: HTMLInputElement, value: string): Promise<void> => {
  await act(async () => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
};

/** The §8 toast currently shown (sonner renders into [data-sonner-toast]). */
export const toasts = (): string[] =>
  [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');

export const findToast = (message: string, timeout = 4_000) =>
  vi.waitFor(() => {
    if (!toasts().some((t) => t.includes(message))) throw new Error(`toast "${message}" not shown; shown: ${toasts().join(' | ')}`);
  }, { timeout, interval: 20 });
