import { useEffect, useSyncExternalStore } from 'react';
import { retryDelayMs } from '../engine/client/retry.ts';
import { art } from './art-path.ts';

/**
 * The `--icon` of a one-colour icon drawn as a CSS mask (docs/mini-app.md "Lost files"). A mask
 * whose file failed gives no error event and is never fetched again while its `url()` stays the
 * same, so the file is loaded by a probe of the same request first (CORS mode, as masks are
 * fetched; the mask then finds it in the memory cache), and the mask gets the address only once
 * it has loaded. A probe that fails tries again with the one backoff under a new address (the
 * server ignores the query). An <img> of art is retried by src/retry-load.ts.
 */
const loaded = new Map<string, string>();
const probed = new Set<string>();
const listeners = new Set<() => void>();

// Until its file is in, an icon masks everything out: nothing shows rather than a filled box.
const blank = `url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E")`;

const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const probe = (name: string, attempt: number): void => {
  const url = attempt === 0 ? art(name) : `${art(name)}?retry=${attempt}`;
  const img = new Image();
  img.crossOrigin = 'anonymous';
  img.onload = () => {
    loaded.set(name, url);
    for (const listener of listeners) listener();
  };
  img.onerror = () => setTimeout(() => probe(name, attempt + 1), retryDelayMs(attempt));
  img.src = url;
};

/** The icon's mask image now: its file once loaded, else a blank one. */
export function useArtMask(name: string): string {
  const url = useSyncExternalStore(subscribe, () => loaded.get(name));
  useEffect(() => {
    if (probed.has(name)) return;
    probed.add(name);
    probe(name, 0);
  }, [name]);
  return url === undefined ? blank : `url(${url})`;
}
