/**
 * A stand-in for the Telegram client's `window.Telegram.WebApp`, at a given Bot API version and
 * platform. It is stricter than Telegram's own script: every method called on a client older than
 * the version that brought it (core.telegram.org/bots/webapps) is recorded in `unsupported` and
 * throws WebAppMethodUnsupported, so a test can tell a guarded call from a swallowed one.
 */
type Handler = (params?: unknown) => void;
type InsetsValue = { top: number; bottom: number; left: number; right: number };
export type HomeScreenStatus = 'unsupported' | 'unknown' | 'added' | 'missed';

export interface FakeClientOptions {
  version: string;
  platform: string;
  initData?: string;
  /** What checkHomeScreenStatus answers (8.0+). */
  homeScreen?: HomeScreenStatus;
  /** What shareMessage's callback says: sent (true) or not. */
  shareSent?: boolean;
  /** Why it was not sent (shareMessageFailed's error); USER_DECLINED unless given. */
  shareError?: 'UNSUPPORTED' | 'MESSAGE_EXPIRED' | 'MESSAGE_SEND_FAILED' | 'USER_DECLINED' | 'UNKNOWN_ERROR';
  /** DeviceStorage's contents at launch (what the client kept from the last one). */
  device?: Map<string, string>;
  /** DeviceStorage's quota: characters of keys and values together (5 MB unless given). */
  deviceQuota?: number;
  /** DeviceStorage's most keys (Telegram Web K keeps 10; none unless given). */
  deviceKeys?: number;
  /** False: DeviceStorage takes calls and never answers (a client that hangs). */
  deviceAnswers?: boolean;
  /** The client's light or dark scheme (light unless given). */
  colorScheme?: 'light' | 'dark';
}

/** DeviceStorage's limits as Telegram's clients apply them (docs/mini-app.md "Telegram"). */
export const deviceStorageLimits = { keyPattern: /^[A-Za-z0-9_-]{1,128}$/, quota: 5 * 1024 * 1024 } as const;

export interface FakeClient {
  /** Every call made, by method name ("BackButton.show", "requestFullscreen"…). */
  calls: string[];
  /** Calls made although the client's version does not have the method. */
  unsupported: string[];
  /** The prepared message ids shareMessage was asked to share. */
  sharedMessages: string[];
  /** The native back button: shown or not, and a press (what the player's tap does). */
  backButton: { readonly visible: boolean; press(): void };
  /** CloudStorage (6.9+) and DeviceStorage (9.0+) contents. */
  cloud: Map<string, string>;
  device: Map<string, string>;
  /** Every DeviceStorage call as the client received it: `save_key key`, `get_key key`…, and the errors it answered. */
  deviceLog: string[];
  /** What the client sends the page: an event, as Telegram's script would deliver it. */
  emit(event: string, params?: unknown): void;
  /** The client switches full screen on or off, then tells the page. */
  setFullscreen(on: boolean): void;
  /** The client sends its safe area and content safe area (each an event). */
  sendInsets(safe: Partial<InsetsValue>, content?: Partial<InsetsValue>): void;
  restore(): void;
}

export const versionAtLeast = (have: string, want: string): boolean => {
  const a = have.split('.').map(Number);
  const b = want.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
};

const zero = (): InsetsValue => ({ top: 0, bottom: 0, left: 0, right: 0 });

/** Installs a fake client as window.Telegram.WebApp until `restore()`. */
export const installFakeClient = (options: FakeClientOptions): FakeClient => {
  // Telegram's script may not have loaded yet (src/telegram.ts loads it after the first screen).
  const global = window as unknown as { Telegram?: { WebApp: unknown } };
  const holder = { Telegram: (global.Telegram ??= { WebApp: undefined }) as { WebApp: unknown; WebView?: unknown } };
  const previous = holder.Telegram.WebApp;
  const previousView = holder.Telegram.WebView;
  const handlers = new Map<string, Set<Handler>>();
  const calls: string[] = [];
  const unsupported: string[] = [];
  const sharedMessages: string[] = [];
  const cloud = new Map<string, string>();
  const device = options.device ?? new Map<string, string>();
  const deviceLog: string[] = [];
  let isFullscreen = false;
  let isOrientationLocked = false;
  const safeAreaInset = zero();
  const contentSafeAreaInset = zero();

  const emit = (event: string, params?: unknown) => {
    for (const handler of [...(handlers.get(event) ?? [])]) handler(params);
  };
  /** A method of Bot API `version`: recorded, and refused like Telegram's script on older clients. */
  const method = <A extends unknown[], R>(name: string, version: string, body?: (...args: A) => R) =>
    (...args: A): R | undefined => {
      if (!versionAtLeast(options.version, version)) {
        unsupported.push(name);
        throw new Error('WebAppMethodUnsupported');
      }
      calls.push(name);
      return body?.(...args);
    };
  const storage = (name: string, version: string, map: Map<string, string>) => ({
    getItem: method(`${name}.getItem`, version, (key: string, callback: (error: string | null, value?: string) => void) => {
      queueMicrotask(() => callback(null, map.get(key) ?? ''));
    }),
    setItem: method(`${name}.setItem`, version, (key: string, value: string, callback?: (error: string | null, ok?: boolean) => void) => {
      map.set(key, value);
      queueMicrotask(() => callback?.(null, true));
    }),
  });
  /**
   * DeviceStorage as Telegram's client runs it, spoken over the script's WebView bridge (the
   * script @twa-dev/sdk bundles has no DeviceStorage object; src/telegram.ts posts the events):
   * `web_app_device_storage_save_key/get_key/clear` with a `req_id`, answered in a later task
   * (never at once) by `device_storage_key_saved/key_received/cleared`, or `device_storage_failed`:
   * keys outside 1–128 characters of A–Z a–z 0–9 _ - are KEY_INVALID, a value neither a string nor
   * null VALUE_INVALID, and a write that would take the bot's keys and values past the quota (or
   * past `deviceKeys` keys) QUOTA_EXCEEDED. A value of null removes the key; a key holding nothing
   * is received as null. A client before 9.0 does not know the events: they are recorded in
   * `unsupported` and never answered.
   */
  const quota = options.deviceQuota ?? deviceStorageLimits.quota;
  const used = (without: string) => [...device].reduce((n, [k, v]) => (k === without ? n : n + k.length + v.length), 0);
  type Answer = [event: string, data: Record<string, unknown>];
  const deviceCall = (type: string, params: Record<string, unknown>): Answer => {
    const { req_id, key, value } = params;
    const failed = (error: string): Answer => ['device_storage_failed', { req_id, error }];
    if (type === 'web_app_device_storage_clear') return (device.clear(), ['device_storage_cleared', { req_id }]);
    if (typeof key !== 'string' || !deviceStorageLimits.keyPattern.test(key)) return failed('KEY_INVALID');
    if (type === 'web_app_device_storage_get_key') return ['device_storage_key_received', { req_id, value: device.get(key) ?? null }];
    if (value === null) return (device.delete(key), ['device_storage_key_saved', { req_id }]);
    if (typeof value !== 'string') return failed('VALUE_INVALID');
    const keys = device.has(key) ? device.size : device.size + 1;
    if (used(key) + key.length + value.length > quota || (options.deviceKeys !== undefined && keys > options.deviceKeys)) return failed('QUOTA_EXCEEDED');
    device.set(key, value);
    return ['device_storage_key_saved', { req_id }];
  };
  const viewHandlers = new Map<string, Set<(type: string, data: unknown) => void>>();
  const receiveEvent = (type: string, data: unknown) => {
    for (const handler of [...(viewHandlers.get(type) ?? [])]) handler(type, data);
  };
  const webView = {
    onEvent: (type: string, handler: (type: string, data: unknown) => void) => {
      if (!viewHandlers.has(type)) viewHandlers.set(type, new Set());
      viewHandlers.get(type)!.add(handler);
    },
    offEvent: (type: string, handler: (type: string, data: unknown) => void) => viewHandlers.get(type)?.delete(handler),
    receiveEvent,
    postEvent: (type: string, callback?: (error?: unknown) => void, data?: unknown) => {
      callback?.();
      if (!type.startsWith('web_app_device_storage_')) return;
      const params = (data ?? {}) as Record<string, unknown>;
      const what = `${type.replace('web_app_device_storage_', '')} ${typeof params.key === 'string' ? params.key : ''}`.trim();
      if (!versionAtLeast(options.version, '9.0')) return void unsupported.push(`DeviceStorage ${what}`);
      deviceLog.push(what);
      if (options.deviceAnswers === false) return;
      setTimeout(() => {
        const [event, answer] = deviceCall(type, params);
        if (event === 'device_storage_failed') deviceLog.push(`${what} → ${String(answer.error)}`);
        receiveEvent(event, answer);
      }, 0);
    },
  };
  const back = { visible: false, handlers: new Set<() => void>() };
  const backButton = {
    show: method('BackButton.show', '6.1', () => void (back.visible = true)),
    hide: method('BackButton.hide', '6.1', () => void (back.visible = false)),
    onClick: method('BackButton.onClick', '6.1', (handler: () => void) => void back.handlers.add(handler)),
    offClick: method('BackButton.offClick', '6.1', (handler: () => void) => void back.handlers.delete(handler)),
  };

  const app = {
    initData: options.initData ?? '',
    initDataUnsafe: {},
    themeParams: {},
    colorScheme: options.colorScheme ?? 'light',
    version: options.version,
    platform: options.platform,
    get isFullscreen() {
      return isFullscreen;
    },
    get isOrientationLocked() {
      return isOrientationLocked;
    },
    safeAreaInset,
    contentSafeAreaInset,
    isVersionAtLeast: (v: string) => versionAtLeast(options.version, v),
    onEvent: (event: string, handler: Handler) => {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)!.add(handler);
    },
    offEvent: (event: string, handler: Handler) => handlers.get(event)?.delete(handler),
    ready: method('ready', '6.0'),
    expand: method('expand', '6.0'),
    openLink: method('openLink', '6.0'),
    openTelegramLink: method('openTelegramLink', '6.1'),
    setHeaderColor: method('setHeaderColor', '6.1'),
    setBackgroundColor: method('setBackgroundColor', '6.1'),
    BackButton: backButton,
    HapticFeedback: {
      impactOccurred: method('HapticFeedback.impactOccurred', '6.1'),
      notificationOccurred: method('HapticFeedback.notificationOccurred', '6.1'),
      selectionChanged: method('HapticFeedback.selectionChanged', '6.1'),
    },
    CloudStorage: storage('CloudStorage', '6.9', cloud),
    disableVerticalSwipes: method('disableVerticalSwipes', '7.7'),
    shareToStory: method('shareToStory', '7.8'),
    requestFullscreen: method('requestFullscreen', '8.0'),
    exitFullscreen: method('exitFullscreen', '8.0'),
    lockOrientation: method('lockOrientation', '8.0', () => {
      isOrientationLocked = true;
    }),
    unlockOrientation: method('unlockOrientation', '8.0', () => {
      isOrientationLocked = false;
    }),
    addToHomeScreen: method('addToHomeScreen', '8.0'),
    checkHomeScreenStatus: method('checkHomeScreenStatus', '8.0', (callback?: (status: HomeScreenStatus) => void) => {
      queueMicrotask(() => callback?.(options.homeScreen ?? 'missed'));
    }),
    shareMessage: method('shareMessage', '8.0', (id: string, callback?: (sent: boolean) => void) => {
      sharedMessages.push(id);
      const sent = options.shareSent ?? true;
      queueMicrotask(() => {
        callback?.(sent);
        if (sent) emit('shareMessageSent');
        else emit('shareMessageFailed', { error: options.shareError ?? 'USER_DECLINED' });
      });
    }),
  };
  holder.Telegram.WebApp = app;
  holder.Telegram.WebView = webView;

  return {
    calls,
    unsupported,
    sharedMessages,
    backButton: {
      get visible() {
        return back.visible;
      },
      press: () => {
        for (const handler of [...back.handlers]) handler();
      },
    },
    cloud,
    device,
    deviceLog,
    emit,
    setFullscreen: (on) => {
      isFullscreen = on;
      emit('fullscreenChanged');
    },
    sendInsets: (safe, content) => {
      Object.assign(safeAreaInset, safe);
      emit('safeAreaChanged');
      if (content) {
        Object.assign(contentSafeAreaInset, content);
        emit('contentSafeAreaChanged');
      }
    },
    restore: () => {
      holder.Telegram.WebApp = previous;
      holder.Telegram.WebView = previousView;
    },
  };
};
