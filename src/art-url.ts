import { useEffect, useSyncExternalStore } from 'react';
import { retryDelayMs } from '../engine/retry.ts';
import { art } from './art-path.ts';

/**
 * The address of a one-colour icon drawn as a CSS mask (docs/mini-app.md "Lost files"). A mask
 * whose file failed gives no error event and is never fetched again while its `url()` stays the
 * same, so each icon is watched by a probe of the same request (CORS mode, as masks are fetched):
 * when it fails, the probe tries again with the one backoff under a new address, and once that
 * loads every mask of the icon switches to it. An <img> of art is retried by src/retry-load.ts.
 */
const recovered = new Map<string, string>();
const probed = new Set<string>();
const listeners = new Set<() => void>();

const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

const probe = (name: string, attempt: number): void => {
  const url = attempt === 0 ? art(name) : `${art(name)}?retry=${attempt}`;
  const img = new Image();
  img.crossOrigin = 'anonymous';
  img.onload = () => {
    if (attempt === 0) return;
    recovered.set(name, url);
    for (const listener of listeners) listener();
  };
  img.onerror = () => setTimeout(() => probe(name, attempt + 1), retryDelayMs(attempt));
  img.src = url;
};

/** The icon's address now: the plain one, or the one that loaded after a failure. */
export function useArtUrl(name: string): string {
  const url = useSyncExternalStore(subscribe, () => recovered.get(name) ?? art(name));
  useEffect(() => {
    if (probed.has(name)) return;
    probed.add(name);
    probe(name, 0);
  }, [name]);
  return url;
}
