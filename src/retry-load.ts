import { retryDelayMs } from '../engine/client/retry.ts';

/**
 * The app's own files, asked for again when they fail (docs/mini-app.md "Lost files"): a lazy
 * chunk, a locale catalog, a stylesheet or a piece of art answered 503 by a busy server, or lost on
 * a flaky phone network, is fetched again after the one backoff (engine/client/retry.ts: 1 s, 2 s, 4 s …),
 * so a hiccup never leaves a blank page, a boot coin for good or a missing icon. Chromium, Safari
 * and Firefox fetch a module, a stylesheet or an image again when it is asked for again after a
 * failure (checked in Chromium: tests/e2e/lost-files.test.ts).
 */

/** Tries of a chunk or a catalog before its caller shows "Reconnecting…" (which goes on trying). */
export const loadAttempts = 4;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Stylesheets that failed and are being fetched again: href → settles when one copy has loaded. */
const sheetsPending = new Map<string, Promise<void>>();

/**
 * The page's one retry loop (the engine's outbox has its own, on the same backoff): runs `run`
 * until it resolves, at most `attempts` times, waiting `waitMs(attempt, error)` between tries (the
 * backoff unless told otherwise); `undefined` from it means the error is not worth another try.
 */
export async function retrying<T>(
  run: () => Promise<T>,
  { attempts, waitMs = retryDelayMs }: { attempts: number; waitMs?: (attempt: number, error: unknown) => number | undefined },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const wait = attempt + 1 < attempts ? waitMs(attempt, error) : undefined;
      if (wait === undefined) throw error;
      await sleep(wait);
    }
  }
}

/**
 * Runs `load` (a dynamic import, a catalog) until it resolves, waiting the backoff between tries,
 * at most `attempts` times; then the stylesheets it brought that failed have been loaded again too.
 */
export function retryLoad<T>(load: () => Promise<T>, attempts = loadAttempts): Promise<T> {
  return retrying(async () => {
    const value = await load();
    await Promise.all(sheetsPending.values());
    return value;
  }, { attempts });
}

/**
 * A stylesheet that failed is added again after the backoff, as often as it takes. Vite's preload
 * helper adds a chunk's CSS as a <link> once per page and never again (it remembers the href even
 * when it failed), so the link is replaced here and `retryLoad` waits for it before rendering.
 */
const reloadStylesheet = (failed: HTMLLinkElement): void => {
  const href = failed.href;
  if (sheetsPending.has(href)) return;
  const parent = failed.parentNode ?? failed.ownerDocument.head;
  const doc = failed.ownerDocument;
  failed.remove();
  const loaded = (async () => {
    for (let attempt = 0; ; attempt++) {
      await sleep(retryDelayMs(attempt));
      const link = doc.createElement('link');
      link.rel = 'stylesheet';
      link.crossOrigin = failed.crossOrigin;
      link.href = href;
      const ok = await new Promise<boolean>((resolve) => {
        link.addEventListener('load', () => resolve(true), { once: true });
        link.addEventListener('error', () => resolve(false), { once: true });
        parent.appendChild(link);
      });
      if (ok) return;
      link.remove();
    }
  })().finally(() => sheetsPending.delete(href));
  sheetsPending.set(href, loaded);
};

const imageAttempts = new WeakMap<HTMLImageElement, number>();

/** An <img> of our art that failed asks for the same file again after the backoff. */
const reloadArt = (img: HTMLImageElement): void => {
  const src = img.getAttribute('src');
  if (!src?.startsWith('/art/')) return;
  const attempt = imageAttempts.get(img) ?? 0;
  imageAttempts.set(img, attempt + 1);
  setTimeout(() => {
    // Setting the attribute again (even to the same value) starts a new load; React may have
    // given the element another file meanwhile, which is then the one to load.
    if (img.isConnected && img.getAttribute('src') === src) img.setAttribute('src', src);
  }, retryDelayMs(attempt));
};

/**
 * Watches the document for files that failed to load (a resource's error event does not bubble,
 * so it is caught on its way down): stylesheets and art are fetched again. Installed once by the
 * entry (src/main.tsx) before any route tree loads.
 */
export function retryFailedFiles(doc: Document = document): void {
  doc.addEventListener(
    'error',
    (event) => {
      const target = event.target;
      if (target instanceof HTMLLinkElement && target.rel === 'stylesheet') reloadStylesheet(target);
      else if (target instanceof HTMLImageElement) reloadArt(target);
    },
    true,
  );
}
