import type WebAppSdk from '@twa-dev/sdk';
import type { KeyValueStore } from '../engine/client/ports.ts';
import { i18n } from './i18n/i18n.ts';
import { retryLoad } from './retry-load.ts';
import { launchClient } from './telegram-launch.ts';
import { startViewport } from './telegram-viewport.ts';
import { since, type TelegramFeature } from './telegram-versions.ts';

/**
 * The one module that touches the Telegram SDK (@twa-dev/sdk). Everything else asks this module:
 * the init data, the start parameter, the theme, the viewport, the back button, haptics, links,
 * sharing and the client's storage. It alone knows which methods the running client has: every
 * call is guarded by the Bot API version the method arrived in (`since`), so an old client (6.x)
 * gets the older path and nothing throws (docs/mini-app.md "Telegram"). Telegram's script loads
 * after the first screen (`loadTelegramSdk`); until then the launch URL answers the read-only
 * questions (./telegram-launch.ts) and calls on the client wait for the script (`withSdk`).
 */
type WebApp = typeof WebAppSdk;

export { since, type TelegramFeature };

// The SDK module runs Telegram's script, which installs window.Telegram.WebApp. The package is
// CommonJS and bundlers disagree on its default-export interop, so we read the global it
// installed; a test stands in another client by replacing that global. Before the script has
// run, the launch URL's parameters stand in for its read-only part.
const installed = (): WebApp | undefined => (window as unknown as { Telegram?: { WebApp?: WebApp } }).Telegram?.WebApp;
const client = (): WebApp => installed() ?? (launchClient() as unknown as WebApp);

let sdk: Promise<void> | undefined;
const waiting: (() => void)[] = [];

/**
 * Loads Telegram's script, once, and runs the calls that waited for it. The shell asks for it when
 * the first screen is on the page, anything that needs the client's answer (storage, home screen,
 * prepared messages) as it asks. Never rejects: without the script, waiting calls stay undone.
 */
export const loadTelegramSdk = (): Promise<void> => {
  // A client already in place (a test's stand-in) is the one to use.
  if (installed() && !sdk) return Promise.resolve();
  sdk ??= retryLoad(() => import('@twa-dev/sdk')).then(
    () => {
      for (const run of waiting.splice(0)) run();
    },
    (error: unknown) => {
      sdk = undefined;
      console.warn('Telegram script did not load', error);
    },
  );
  return sdk;
};

/** Runs `call` on the client's script: now if it is in place, else once it has loaded. Returns a cancel. */
const withSdk = (call: () => void): (() => void) => {
  if (installed()) {
    call();
    return () => undefined;
  }
  let cancelled = false;
  waiting.push(() => cancelled || call());
  return () => {
    cancelled = true;
  };
};

/** True when the running client has `feature` (its Bot API version is at least `since[feature]`). */
export const supports = (feature: TelegramFeature): boolean => {
  try {
    return client().isVersionAtLeast(since[feature]);
  } catch {
    return false;
  }
};

/** A client call that never throws: a client that misbehaves is logged and ignored; none before the script. */
const attempt = <T>(what: string, call: (app: WebApp) => T): T | undefined => {
  const app = installed();
  if (!app) return undefined;
  try {
    return call(app);
  } catch (error) {
    console.warn(`Telegram ${what}`, error);
    return undefined;
  }
};

/** The raw init data, sent as `Authorization` on every authenticated call (§6). */
export const initData = (): string => client().initData ?? '';

/** The start parameter (`tgWebAppStartParam`): a referral code (§2). */
export const startParam = (): string | null => {
  const fromSdk = client().initDataUnsafe?.start_param;
  if (fromSdk) return fromSdk;
  const fromQuery = new URLSearchParams(window.location.search).get('tgWebAppStartParam');
  return fromQuery || null;
};

/** The Telegram user as the client sees it (for avatar fallbacks and the story-share id). */
export const telegramUser = () => client().initDataUnsafe?.user ?? null;

const themeVariable: Record<string, string> = {
  bg_color: '--tg-bg',
  secondary_bg_color: '--tg-bg-2',
  text_color: '--tg-text',
  hint_color: '--tg-hint',
  link_color: '--tg-link',
  button_color: '--tg-button',
  button_text_color: '--tg-button-text',
  section_bg_color: '--tg-section',
  destructive_text_color: '--tg-destructive',
};

/** Telegram's light or dark scheme now (it follows the theme's updates). */
export const colorScheme = (): 'light' | 'dark' => (client().colorScheme === 'dark' ? 'dark' : 'light');

/** Maps Telegram's theme params to CSS variables and the light/dark scheme onto <html data-theme>. */
export const applyTheme = (root: HTMLElement = document.documentElement): void => {
  const params = (client().themeParams ?? {}) as unknown as Record<string, string | undefined>;
  for (const [key, variable] of Object.entries(themeVariable)) {
    const value = params[key];
    if (value) root.style.setProperty(variable, value);
    else root.style.removeProperty(variable);
  }
  root.dataset.theme = colorScheme();
};

/**
 * The theme from the launch URL at once (the first screen is drawn in it); once Telegram's script
 * is in place: ready(), expand(), no vertical swipes (a fast downward tap must not close the app),
 * colours, the theme's updates, and full screen on phones. Returns the cleanup (tests mount more
 * than once).
 */
export const initTelegram = (root: HTMLElement = document.documentElement): (() => void) => {
  applyTheme(root);
  let stop = (): void => undefined;
  const cancel = withSdk(() => {
    stop = startClient(root);
  });
  return () => {
    cancel();
    stop();
  };
};

const startClient = (root: HTMLElement): (() => void) => {
  attempt('ready', (a) => a.ready());
  attempt('expand', (a) => a.expand());
  if (supports('verticalSwipes')) attempt('disableVerticalSwipes', (a) => a.disableVerticalSwipes());
  if (supports('colors')) {
    attempt('setHeaderColor', (a) => a.setHeaderColor('bg_color'));
    attempt('setBackgroundColor', (a) => a.setBackgroundColor('bg_color'));
  }
  applyTheme(root);
  const app = client();
  const onTheme = () => applyTheme(root);
  attempt('onEvent', (a) => a.onEvent('themeChanged', onTheme));
  const stopViewport = attempt('viewport', () => startViewport(root, { client, supports, attempt })) ?? (() => undefined);
  return () => {
    stopViewport();
    attempt('offEvent', () => app.offEvent('themeChanged', onTheme));
  };
};

/** Shows the native back button calling `onBack`, or hides it. Returns the cleanup. */
export const bindBackButton = (visible: boolean, onBack: () => void): (() => void) => {
  if (!supports('backButton')) return () => undefined;
  let unbind = (): void => undefined;
  const cancel = withSdk(() => {
    const button = client().BackButton;
    if (!visible) return void attempt('BackButton.hide', () => button.hide());
    attempt('BackButton.show', () => {
      button.onClick(onBack);
      button.show();
    });
    unbind = () => void attempt('BackButton.offClick', () => button.offClick(onBack));
  });
  return () => {
    cancel();
    unbind();
  };
};

/**
 * Haptics. Android clients often ignore impactOccurred, while notificationOccurred works, so
 * claims use the notification kind and taps use the light impact.
 */
export const haptic = {
  tap: () => {
    if (supports('haptics')) attempt('haptic', (a) => a.HapticFeedback.impactOccurred('light'));
  },
  success: () => {
    if (supports('haptics')) attempt('haptic', (a) => a.HapticFeedback.notificationOccurred('success'));
  },
  error: () => {
    if (supports('haptics')) attempt('haptic', (a) => a.HapticFeedback.notificationOccurred('error'));
  },
  // Morse on the coin (the daily cipher): a dot and a dash feel different, and so does a letter's end.
  dot: () => {
    if (supports('haptics')) attempt('haptic', (a) => a.HapticFeedback.impactOccurred('light'));
  },
  dash: () => {
    if (supports('haptics')) attempt('haptic', (a) => a.HapticFeedback.impactOccurred('heavy'));
  },
  letter: () => {
    if (supports('haptics')) attempt('haptic', (a) => a.HapticFeedback.selectionChanged());
  },
};

// ── Links and sharing ───────────────────────────────────────────────────────────────────────

/** The fixed text of the share link (§7 "a fixed text"), in the player's language (docs/i18n.md). */
export const shareText = (): string => i18n._('app.share.text');

/** The t.me share link carrying the referral link and the fixed text. */
export const shareUrl = (refLink: string): string =>
  `https://t.me/share/url?url=${encodeURIComponent(refLink)}&text=${encodeURIComponent(shareText())}`;

/**
 * True inside a Telegram client: the SDK's events reach a native proxy, or the parent frame (web
 * clients). A plain browser with signed init data (the demo launch) has neither, and the SDK's
 * openLink would silently do nothing there.
 */
const inTelegramClient = (): boolean =>
  'TelegramWebviewProxy' in window || window.parent !== window || (typeof window.external === 'object' && window.external !== null && 'notify' in window.external);

/** Opens a t.me link inside Telegram, or a new tab outside it. */
export const openTelegramLink = (url: string): void => {
  if (client().initData && supports('telegramLink') && inTelegramClient() && attempt('openTelegramLink', (a) => (a.openTelegramLink(url), true))) return;
  window.open(url, '_blank', 'noopener');
};

/** Opens an outside link (tasks, exchanges). */
export const openLink = (url: string): void => {
  if (client().initData && inTelegramClient() && attempt('openLink', (a) => (a.openLink(url), true))) return;
  window.open(url, '_blank', 'noopener');
};

/** Shares the referral link through the t.me share sheet. */
export const shareRefLink = (refLink: string): void => openTelegramLink(shareUrl(refLink));

export type ShareOutcome = 'sent' | 'declined' | 'failed';

/**
 * Shares a message the bot prepared (Bot API 8.0 `shareMessage`): the player picks the chats.
 * 'declined' when the player closed the dialog, 'failed' when the client could not (an older
 * client, an expired message): the caller then shares the link instead.
 */
export const sharePreparedMessage = async (id: string): Promise<ShareOutcome> => {
  if (!supports('preparedMessage')) return 'failed';
  await loadTelegramSdk();
  return new Promise((resolve) => {
    const app = client();
    let reason: string | undefined;
    const onFailed = (event: { error?: string } | undefined) => {
      reason = event?.error;
    };
    app.onEvent('shareMessageFailed', onFailed);
    const done = (outcome: ShareOutcome) => {
      attempt('offEvent', () => app.offEvent('shareMessageFailed', onFailed));
      resolve(outcome);
    };
    const asked = attempt('shareMessage', (a) => {
      a.shareMessage(id, (sent) => {
        if (sent) return done('sent');
        // The reason arrives with the event the client sends right after this callback.
        queueMicrotask(() => done(reason === 'USER_DECLINED' ? 'declined' : 'failed'));
      });
      return true;
    });
    if (!asked) done('failed');
  });
};

/** How a Stars payment sheet closed (Bot API 6.1 `openInvoice`'s status), or 'unsupported' when the client cannot open one. */
export type InvoiceStatus = 'paid' | 'cancelled' | 'failed' | 'pending' | 'unsupported';

/**
 * Opens a Stars invoice link in Telegram's payment sheet (Bot API 6.1 `openInvoice`) and resolves
 * with the status the sheet closed with. An older client, or none, gets 'unsupported' and the
 * caller says so; the payment itself is credited only by the bot's successful_payment (docs/shop.md).
 */
export const openInvoice = async (link: string): Promise<InvoiceStatus> => {
  if (!supports('invoice') || !inTelegramClient()) return 'unsupported';
  await loadTelegramSdk();
  return new Promise((resolve) => {
    const asked = attempt('openInvoice', (a) => {
      a.openInvoice(link, (status) => resolve(status === 'paid' || status === 'cancelled' || status === 'pending' ? status : 'failed'));
      return true;
    });
    if (!asked) resolve('unsupported');
  });
};

/** §2: the special user's share action is a story with the reward card image and the link. */
export const shareStory = (mediaUrl: string, refLink: string): void => {
  const shared = supports('story') && attempt('shareToStory', (a) => (a.shareToStory(mediaUrl, { text: shareText(), widget_link: { url: refLink, name: 'MONEY' } }), true));
  if (!shared) shareRefLink(refLink);
};

// ── The client's storage and the home-screen shortcut ──────────────────────────────────────

/** Telegram's key-value storages share this shape (CloudStorage 6.9, DeviceStorage 9.0). */
interface KeyValueStorage {
  getItem(key: string, callback: (error: string | null, value?: string | null) => void): unknown;
  setItem(key: string, value: string, callback?: (error: string | null, stored?: boolean | null) => void): unknown;
}

/**
 * `WebApp.DeviceStorage` (Bot API 9.0; @twa-dev/sdk 8.0.2 has no type for it), as Telegram's
 * script defines it (core.telegram.org/bots/webapps#devicestorage): every call posts to the client
 * and answers later through its callback, with an error string (`KEY_INVALID`, `VALUE_INVALID`,
 * `QUOTA_EXCEEDED`, `UNKNOWN_ERROR`) or the result; getItem answers null for a key that holds
 * nothing, and removeItem is a write of null. Keys are 1–128 characters of A–Z, a–z, 0–9, `_` and
 * `-`; the client keeps up to 5 MB for the bot on this device, keys and values counted together
 * (Telegram Web K also refuses more than 10 keys). A client older than 9.0 throws on every call.
 * The script @twa-dev/sdk 8.0.2 bundles has no DeviceStorage: `deviceStorageOver` speaks the same
 * events over its WebView bridge.
 */
export interface TelegramDeviceStorage extends KeyValueStorage {
  setItem(key: string, value: string, callback?: (error: string | null, stored?: boolean | null) => void): TelegramDeviceStorage;
  getItem(key: string, callback: (error: string | null, value?: string | null) => void): TelegramDeviceStorage;
  removeItem(key: string, callback?: (error: string | null, removed?: boolean | null) => void): TelegramDeviceStorage;
  clear(callback?: (error: string | null, cleared?: boolean | null) => void): TelegramDeviceStorage;
}

/** A client answer that does not come in this long is taken as no answer. */
export const clientAnswerMs = 3_000;

const answerWithin = <T>(ms: number, fallback: T, ask: (answer: (value: T) => void) => void): Promise<T> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    const answer = (value: T) => {
      clearTimeout(timer);
      resolve(value);
    };
    if (attempt('storage', () => (ask(answer), true)) === undefined) answer(fallback);
  });

/** The bridge Telegram's script keeps between the page and the client (`window.Telegram.WebView`). */
interface WebViewBridge {
  postEvent(type: string, callback: ((error?: unknown) => void) | undefined, data?: unknown): void;
  onEvent(type: string, handler: (type: string, data: unknown) => void): void;
}

const deviceStorageEvents = ['device_storage_key_saved', 'device_storage_key_received', 'device_storage_cleared', 'device_storage_failed'];

/**
 * DeviceStorage as Telegram's 9.0 script defines it, over the script's WebView bridge: the script
 * @twa-dev/sdk 8.0.2 bundles predates it. Each call posts `web_app_device_storage_*` with a
 * `req_id`, and the client's `device_storage_*` event with that id answers its callback.
 */
const deviceStorageOver = (view: WebViewBridge): TelegramDeviceStorage => {
  const waiting = new Map<string, (error: string | null, result?: unknown) => void>();
  const onAnswer = (type: string, data: unknown) => {
    const { req_id: id, error, value } = (data ?? {}) as { req_id?: unknown; error?: unknown; value?: unknown };
    const callback = typeof id === 'string' ? waiting.get(id) : undefined;
    if (!callback) return;
    waiting.delete(id as string);
    if (type === 'device_storage_failed') callback(typeof error === 'string' && error ? error : 'UNKNOWN_ERROR');
    else callback(null, type === 'device_storage_key_received' ? (typeof value === 'string' ? value : null) : true);
  };
  for (const type of deviceStorageEvents) view.onEvent(type, onAnswer);
  let sent = 0;
  const invoke = (method: string, params: Record<string, unknown>, callback?: (error: string | null, result?: never) => void) => {
    const id = `money${Date.now().toString(36)}${(++sent).toString(36)}`;
    waiting.set(id, (callback ?? (() => undefined)) as (error: string | null, result?: unknown) => void);
    view.postEvent(method, (failed) => {
      // Nowhere to post it (no client): answered at once, as a failure.
      if (failed && waiting.delete(id)) callback?.('UNKNOWN_ERROR');
    }, { req_id: id, ...params });
    return storage;
  };
  const storage: TelegramDeviceStorage = {
    setItem: (key, value, callback) => invoke('web_app_device_storage_save_key', { key, value }, callback),
    getItem: (key, callback) => invoke('web_app_device_storage_get_key', { key }, callback),
    removeItem: (key, callback) => invoke('web_app_device_storage_save_key', { key, value: null }, callback),
    clear: (callback) => invoke('web_app_device_storage_clear', {}, callback),
  };
  return storage;
};

const bridged = new WeakMap<WebViewBridge, TelegramDeviceStorage>();

/** The client's DeviceStorage (9.0+): the script's own where it has one, else ours over its bridge; null before 9.0 or without the script. */
const deviceStorage = (): TelegramDeviceStorage | null => {
  if (!supports('deviceStorage')) return null;
  const own = (installed() as (WebApp & { DeviceStorage?: TelegramDeviceStorage }) | undefined)?.DeviceStorage;
  if (own) return own;
  const view = (window as unknown as { Telegram?: { WebView?: WebViewBridge } }).Telegram?.WebView;
  if (!installed() || !view) return null;
  if (!bridged.has(view)) bridged.set(view, deviceStorageOver(view));
  return bridged.get(view)!;
};

/** DeviceStorage on 9.0+ (this device only), CloudStorage on 6.9+ (the player's, across devices). */
const clientStorage = (): KeyValueStorage | null => {
  const device = deviceStorage();
  if (device) return device;
  const app = client();
  if (supports('cloudStorage') && app.CloudStorage) return app.CloudStorage as unknown as KeyValueStorage;
  return null;
};

const local = {
  get: (key: string): string | null => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set: (key: string, value: string): void => {
    try {
      localStorage.setItem(key, value);
    } catch {
      // Private mode or a full quota: the client's storage still has it.
    }
  },
};

/**
 * Small remembered values (an answer the player gave, days played): the client's storage where
 * the client has one, mirrored in localStorage, which alone serves older clients and any client
 * that does not answer in time.
 */
export const clientStore = {
  get: async (key: string): Promise<string | null> => {
    await loadTelegramSdk();
    const storage = clientStorage();
    const kept = storage
      ? await answerWithin<string | null>(clientAnswerMs, null, (answer) => storage.getItem(key, (error, value) => answer(error ? null : value || null)))
      : null;
    return kept ?? local.get(key);
  },
  set: async (key: string, value: string): Promise<void> => {
    local.set(key, value);
    await loadTelegramSdk();
    const storage = clientStorage();
    if (storage) await answerWithin(clientAnswerMs, undefined, (answer) => storage.setItem(key, value, () => answer(undefined)));
  },
};

/** A DeviceStorage call as a promise: rejects with the client's error, or when it does not answer in `clientAnswerMs`. */
const deviceCall = <T>(what: string, ask: (done: (error: string | null, value?: T | null) => void) => void): Promise<T | null> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`DeviceStorage.${what}: no answer in ${clientAnswerMs} ms`)), clientAnswerMs);
    try {
      ask((error, value) => {
        clearTimeout(timer);
        if (error) reject(new Error(`DeviceStorage.${what}: ${error}`));
        else resolve(value ?? null);
      });
    } catch (error) {
      clearTimeout(timer);
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });

/**
 * The client's device storage (Bot API 9.0) as the engine's KeyValueStore (engine/client/ports.ts), or
 * null on an older client, in a plain browser, or when Telegram's script did not load: the caller
 * then keeps its data in web storage. Loads Telegram's script first (its events carry the answers).
 * Every call rejects on the client's error or after `clientAnswerMs` without an answer.
 */
export const openDeviceStorage = async (): Promise<KeyValueStore | null> => {
  if (!supports('deviceStorage')) return null;
  await loadTelegramSdk();
  const storage = deviceStorage();
  if (!storage) return null;
  return {
    get: async (key) => {
      const value = await deviceCall<string>('getItem', (done) => storage.getItem(key, done));
      return typeof value === 'string' ? value : null;
    },
    set: async (key, value) => void (await deviceCall<boolean>('setItem', (done) => storage.setItem(key, value, done))),
    remove: async (key) => void (await deviceCall<boolean>('removeItem', (done) => storage.removeItem(key, done))),
  };
};

export type HomeScreenStatus = 'unsupported' | 'unknown' | 'added' | 'missed';

/** Whether MONEY is on the home screen (8.0): "unsupported" on older clients and platforms. */
export const homeScreenStatus = async (): Promise<HomeScreenStatus> => {
  // A plain browser with signed init data (the demo) has no client to ask, nor a home screen to add to.
  if (!supports('homeScreen') || !inTelegramClient()) return 'unsupported';
  await loadTelegramSdk();
  return answerWithin<HomeScreenStatus>(clientAnswerMs, 'unknown', (answer) => client().checkHomeScreenStatus((status) => answer(status)));
};

/** Asks the client to add MONEY to the home screen (8.0); the client shows its own dialog. */
export const addToHomeScreen = (): void => {
  if (supports('homeScreen')) attempt('addToHomeScreen', (a) => a.addToHomeScreen());
};
