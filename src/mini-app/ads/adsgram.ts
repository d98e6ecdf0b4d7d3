/**
 * The Adsgram SDK, loaded from its script on first use with the block id from config (§7 "an ads
 * provider SDK is initialised with a block id"). `show()` resolves when the ad was watched to the
 * end and rejects with `{ done: false, error }` on a skip (error false) or a failure (error true).
 */
import { loadScript } from '../ui/load-script.ts';

export const adsgramScriptUrl = 'https://sad.adsgram.ai/js/sad.min.js';

export interface AdsgramResult {
  done: boolean;
  description?: string;
  state?: 'load' | 'render' | 'playing' | 'destroy';
  error: boolean;
}

export interface AdController {
  show(): Promise<AdsgramResult>;
}

declare global {
  interface Window {
    Adsgram?: { init(options: { blockId: string; debug?: boolean }): AdController };
  }
}

/** The ad controller, or null when there is no block id or the SDK cannot load (→ "Watch video failed"). */
export const loadAdsgram = async (blockId: string, src: string = adsgramScriptUrl): Promise<AdController | null> => {
  if (!blockId) return null;
  try {
    if (!window.Adsgram) await loadScript(src);
    return window.Adsgram?.init({ blockId }) ?? null;
  } catch {
    return null;
  }
};

/** §7: "an ads provider SDK is initialised with a block id chosen from a fixed list" (comma-separated in config). */
export const chooseBlockId = (list: string, random: () => number = Math.random): string => {
  const ids = list.split(',').map((s) => s.trim()).filter(Boolean);
  return ids.length === 0 ? '' : ids[Math.floor(random() * ids.length)]!;
};

/** What one showing ended in. */
export type AdOutcome = 'reward' | 'skip' | 'error';

export const showAd = async (controller: AdController): Promise<AdOutcome> => {
  try {
    const result = await controller.show();
    return result.done ? 'reward' : result.error ? 'error' : 'skip';
  } catch (reason) {
    const result = reason as Partial<AdsgramResult> | undefined;
    return result && result.error === false ? 'skip' : 'error';
  }
};

/** base64 of a string (UTF-8 safe), for `encryptData` (§7). */
export const toBase64 = (text: string): string => {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
};
