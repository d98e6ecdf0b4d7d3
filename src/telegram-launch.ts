/**
 * What Telegram puts in the launch URL's hash (`tgWebAppData`, `tgWebAppVersion`,
 * `tgWebAppPlatform`, `tgWebAppThemeParams`), read the way Telegram's own script reads it, so the
 * first screen renders before that script has loaded (src/telegram.ts loads it after the first
 * screen; docs/mini-app.md "First paint"). No SDK import here: this is what the page knows about
 * the launch without it.
 */

/** The launch parameters: the hash's, else the ones Telegram's script kept for this tab (a reload). */
const readParams = (): Record<string, string | undefined> => {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  if (hash.get('tgWebAppData')) return Object.fromEntries(hash);
  try {
    // Telegram's script keeps the first launch's parameters in session storage (its own key).
    const kept = JSON.parse(sessionStorage.getItem('__telegram__initParams') ?? 'null') as Record<string, string> | null;
    return { ...kept, ...Object.fromEntries(hash) };
  } catch {
    return Object.fromEntries(hash);
  }
};

/** `user`, `receiver` and `chat` are JSON inside the init data; the rest stay strings (as the SDK does). */
const parseInitData = (raw: string): Record<string, unknown> => {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const json = (value.startsWith('{') && value.endsWith('}')) || (value.startsWith('[') && value.endsWith(']'));
    try {
      fields[key] = json ? JSON.parse(value) : value;
    } catch {
      fields[key] = value;
    }
  }
  return fields;
};

/** Telegram's rule for a dark background (its script's isColorDark: perceived brightness under 120). */
const isDark = (hex: string): boolean => {
  const rgb = hex.replace(/[\s#]/g, '');
  const full = rgb.length === 3 ? rgb.replace(/./g, '$&$&') : rgb;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120;
};

const versionAtLeast = (have: string, want: string): boolean => {
  const a = have.split('.').map((n) => parseInt(n) || 0);
  const b = want.split('.').map((n) => parseInt(n) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
};

/** The read-only part of `Telegram.WebApp` that the first screen needs, from the launch URL. */
export interface LaunchClient {
  initData: string;
  initDataUnsafe: Record<string, unknown>;
  themeParams: Record<string, string>;
  colorScheme: 'light' | 'dark';
  version: string;
  platform: string;
  isVersionAtLeast(version: string): boolean;
}

/** The launch as the URL describes it (read once, at the first call). */
export const launchClient = (() => {
  let client: LaunchClient | undefined;
  return (): LaunchClient => {
    if (client) return client;
    const params = readParams();
    let themeParams: Record<string, string> = {};
    try {
      themeParams = (JSON.parse(params.tgWebAppThemeParams ?? '{}') ?? {}) as Record<string, string>;
    } catch {
      // A malformed theme: the app's own palette, as with Telegram's script.
    }
    const version = params.tgWebAppVersion || '6.0';
    client = {
      initData: params.tgWebAppData ?? '',
      initDataUnsafe: params.tgWebAppData ? parseInitData(params.tgWebAppData) : {},
      themeParams,
      colorScheme: themeParams.bg_color && isDark(themeParams.bg_color) ? 'dark' : 'light',
      version,
      platform: params.tgWebAppPlatform || 'unknown',
      isVersionAtLeast: (want) => versionAtLeast(version, want),
    };
    return client;
  };
})();
