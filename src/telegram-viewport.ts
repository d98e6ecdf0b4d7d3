import type WebAppSdk from '@twa-dev/sdk';
import type { TelegramFeature } from './telegram-versions.ts';

/**
 * The viewport part of src/telegram.ts (docs/mini-app.md "Telegram"): it runs once Telegram's
 * script is in place, on the client and the guards src/telegram.ts hands it.
 */
type WebApp = typeof WebAppSdk;

export interface ViewportDeps {
  client: () => WebApp;
  supports: (feature: TelegramFeature) => boolean;
  attempt: <T>(what: string, call: (app: WebApp) => T) => T | undefined;
}

// ── Viewport: full screen on phones (Bot API 8.0), the expanded layout everywhere else ─────────

/** Phones get full screen; desktop clients (tdesktop, macos, web, weba, webk, unigram) stay windowed. */
const phonePlatforms: ReadonlySet<string> = new Set(['android', 'android_x', 'ios']);

/**
 * How long a phone may take to answer the full-screen request. Some iOS clients ignore it
 * silently (no fullscreenChanged, no fullscreenFailed): after this the expanded layout is final.
 */
export const fullscreenAnswerMs = 1_500;
/** How long full screen waits for the client's insets before it uses the ones it has. */
export const insetsAnswerMs = 1_000;

const sides = ['top', 'bottom', 'left', 'right'] as const;
export type Insets = Record<(typeof sides)[number], number>;

/**
 * The layout's inset: the device's safe area (notch, home bar) plus the client's content safe
 * area (Telegram's own buttons over a full-screen app).
 */
const layoutInsets = (app: WebApp): Insets => {
  const safe = app.safeAreaInset ?? { top: 0, bottom: 0, left: 0, right: 0 };
  const content = app.contentSafeAreaInset ?? { top: 0, bottom: 0, left: 0, right: 0 };
  return Object.fromEntries(sides.map((s) => [s, (safe[s] ?? 0) + (content[s] ?? 0)])) as Insets;
};

/**
 * Asks a phone for full screen and portrait, and keeps `<html data-viewport>` and the
 * `--inset-*` variables in step with the client. The expanded layout stays until the client says
 * it is full screen AND has sent its insets (iOS sends them late): both then land in one style
 * write with transitions off, so nothing jumps. Returns the cleanup.
 */
export const startViewport = (root: HTMLElement, { client, supports, attempt }: ViewportDeps): (() => void) => {
  const app = client();
  let insetsArrived = false;
  let insetsTimer: ReturnType<typeof setTimeout> | undefined;
  let answerTimer: ReturnType<typeof setTimeout> | undefined;

  const layout = () => {
    const full = supports('fullscreen') && client().isFullscreen === true && insetsArrived;
    const mode = full ? 'fullscreen' : 'expanded';
    const insets = full ? layoutInsets(client()) : null;
    if (root.dataset.viewport !== mode) {
      // One frame without transitions: the insets arrive as a layout, not as an animation.
      root.dataset.viewportSettling = '';
      requestAnimationFrame(() => requestAnimationFrame(() => delete root.dataset.viewportSettling));
    }
    for (const side of sides) {
      if (insets) root.style.setProperty(`--inset-${side}`, `${insets[side]}px`);
      else root.style.removeProperty(`--inset-${side}`);
    }
    root.dataset.viewport = mode;
  };
  const onInsets = () => {
    insetsArrived = true;
    clearTimeout(insetsTimer);
    layout();
  };
  const onFullscreen = () => {
    clearTimeout(answerTimer);
    clearTimeout(insetsTimer);
    // Insets sent before the switch describe the windowed app: wait for the full-screen ones,
    // or use what the client has after a while (a client may not resend unchanged insets).
    insetsArrived = false;
    if (client().isFullscreen) insetsTimer = setTimeout(onInsets, insetsAnswerMs);
    layout();
  };
  const onFailed = () => {
    clearTimeout(answerTimer);
    layout();
  };

  layout();
  if (!supports('fullscreen')) return () => undefined;
  app.onEvent('safeAreaChanged', onInsets);
  app.onEvent('contentSafeAreaChanged', onInsets);
  app.onEvent('fullscreenChanged', onFullscreen);
  app.onEvent('fullscreenFailed', onFailed);
  if (app.isFullscreen) onFullscreen();
  else if (phonePlatforms.has(app.platform)) {
    attempt('requestFullscreen', (a) => a.requestFullscreen());
    // No answer: the client ignored the request; the expanded layout stays, expanded for sure.
    answerTimer = setTimeout(() => attempt('expand', (a) => a.expand()), fullscreenAnswerMs);
  }
  if (phonePlatforms.has(app.platform) && supports('orientationLock')) attempt('lockOrientation', (a) => a.lockOrientation());
  return () => {
    clearTimeout(answerTimer);
    clearTimeout(insetsTimer);
    app.offEvent('safeAreaChanged', onInsets);
    app.offEvent('contentSafeAreaChanged', onInsets);
    app.offEvent('fullscreenChanged', onFullscreen);
    app.offEvent('fullscreenFailed', onFailed);
  };
};
