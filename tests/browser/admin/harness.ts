import { act } from 'react';
import { afterEach, vi } from 'vitest';
import { adminApiPrefix } from '../../../engine/wire/admin-types.ts';
import { cleanup } from '../site/render.tsx';

/** A JSON answer as the console API sends it. */
export const json = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const click = (el: Element) => act(async () => (el as HTMLElement).click());

/** Types into an input the way React sees a user's typing (its value setter, then an input event). */
export const type = async (el: Element, value: string) => {
  const input = el as HTMLInputElement;
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'value')!.set!;
  await act(async () => {
    setter.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
};

/** The button under `host` whose text is exactly `text`. */
export const button = (host: Element, text: string) => [...host.querySelectorAll('button')].find((b) => b.textContent === text)!;

/** After each test: the page unmounted and the stubbed fetch restored. */
export const consoleTestHooks = (): void => {
  afterEach(async () => {
    await cleanup();
    vi.unstubAllGlobals();
  });
};

type Route = (method: string, path: string, init: RequestInit) => Response | undefined;
/** A fake console API: the first route that answers wins; every call is recorded. */
export const fakeApi = (route: Route) => {
  const calls: { method: string; path: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = url.replace(adminApiPrefix, '');
    const method = init.method ?? 'GET';
    calls.push({ method, path, init });
    return route(method, path, init) ?? json(404, { error: 'Not Found', message: `no fake for ${method} ${path}` });
  }));
  return calls;
};
