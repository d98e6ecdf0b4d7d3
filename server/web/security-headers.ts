/**
 * Security headers per path (docs/decisions/launch.md). Two policies, because the two route trees live
 * under different paths: the mini-app under /app may be framed by Telegram's web clients and loads
 * the Telegram, Adsgram and Turnstile origins; the public pages load nothing but our own origin and
 * may not be framed at all. API answers get a deny-all policy (they are JSON, never documents).
 */

/**
 * TON Connect (the Wallet screen's link, docs/airdrop.md): the wallets list, and the wallets'
 * HTTP bridges the SDK holds an EventSource to while a wallet answers.
 */
/** sha256 of the empty string: the one inline event handler the mini-app allows (see script-src). */
const emptyInlineHandlerHash = "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='";

const tonConnectOrigins = [
  'https://config.ton.org',
  'https://raw.githubusercontent.com',
  'https://bridge.tonapi.io',
  'https://walletbot.me',
  'https://connect.tonhubapi.com',
  'https://tonconnectbridge.mytonwallet.org',
  'https://ton-connect-bridge.bgwapi.io',
  'https://www.okx.com',
  'https://bridge.dewallet.pro',
];

/** Origins the mini-app talks to, besides its own. */
export const miniAppOrigins = {
  // Telegram's web clients (web.telegram.org/k, /a) frame the mini-app.
  frameAncestors: ['https://web.telegram.org', 'https://*.telegram.org'],
  // Adsgram's SDK script (sad.adsgram.ai) and Cloudflare Turnstile's widget script.
  scripts: ['https://telegram.org', 'https://sad.adsgram.ai', 'https://challenges.cloudflare.com'],
  // Adsgram reports impressions and fetches creatives; Turnstile's widget calls home.
  connect: ['https://*.adsgram.ai', 'https://challenges.cloudflare.com', ...tonConnectOrigins],
  // Turnstile renders in an iframe; Adsgram plays ads in one.
  frames: ['https://challenges.cloudflare.com', 'https://*.adsgram.ai'],
  media: ['https://*.adsgram.ai'],
} as const;

/** The Telegram Login Widget on the console's sign-in page: its script, and the iframe it draws. */
export const loginWidgetOrigins = { scripts: ['https://telegram.org'], frames: ['https://oauth.telegram.org'] } as const;

export type PageKind = 'mini-app' | 'site' | 'admin' | 'api';

/** Which policy a request path gets: /app and /app/* are the mini-app, the API prefix is API, the rest the site. */
export const pageKind = (path: string, apiPrefix: string): PageKind => {
  const p = path.split('?')[0] ?? path;
  if (p === '/app' || p.startsWith('/app/')) return 'mini-app';
  if (p === '/admin' || p.startsWith('/admin/')) return 'admin';
  if (p === apiPrefix || p.startsWith(`${apiPrefix}/`) || p.startsWith('/money/api/')) return 'api';
  return 'site';
};

const directives = (d: Record<string, string[]>): string =>
  Object.entries(d)
    .map(([name, values]) => (values.length ? `${name} ${values.join(' ')}` : name))
    .join('; ');

/** The Content-Security-Policy for one kind of page. */
export const contentSecurityPolicy = (kind: PageKind, https: boolean): string => {
  const upgrade: Record<string, string[]> = https ? { 'upgrade-insecure-requests': [] } : {};
  if (kind === 'api') return directives({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
  // Both trees: React sets style attributes and sonner injects a <style> element, hence
  // 'unsafe-inline' for styles only; scripts are never inline (the config block is JSON data).
  const common = {
    'default-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    // Avatars come from Telegram's and X's CDNs.
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  if (kind === 'site' || kind === 'admin') {
    return directives({
      ...common,
      // The console (docs/admin.md) also loads the Login Widget; it is never framed.
      'script-src': ["'self'", ...(kind === 'admin' ? loginWidgetOrigins.scripts : [])],
      ...(kind === 'admin' ? { 'frame-src': [...loginWidgetOrigins.frames] } : {}),
      'connect-src': ["'self'"],
      'frame-ancestors': ["'none'"],
      ...upgrade,
    });
  }
  return directives({
    ...common,
    // TON Connect's UI sets an empty `ontouchstart` on <body> (an old iOS :active trick); this
    // hash allows exactly that empty handler and no other inline code.
    'script-src': ["'self'", ...miniAppOrigins.scripts, "'unsafe-hashes'", emptyInlineHandlerHash],
    'connect-src': ["'self'", ...miniAppOrigins.connect],
    'frame-src': [...miniAppOrigins.frames],
    'media-src': ["'self'", 'blob:', ...miniAppOrigins.media],
    // The engine runs in a module Web Worker built into /assets.
    'worker-src': ["'self'", 'blob:'],
    'frame-ancestors': [...miniAppOrigins.frameAncestors],
    ...upgrade,
  });
};

/** Every security header for a path; `https` adds HSTS and upgrade-insecure-requests. */
export const securityHeaders = (path: string, opts: { apiPrefix: string; https: boolean }): Record<string, string> => {
  const kind = pageKind(path, opts.apiPrefix);
  const headers: Record<string, string> = {
    'content-security-policy': contentSecurityPolicy(kind, opts.https),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
  };
  // X-Frame-Options has no allow-list form, so the mini-app relies on frame-ancestors alone.
  if (kind !== 'mini-app') headers['x-frame-options'] = 'DENY';
  if (kind !== 'mini-app') headers['cross-origin-resource-policy'] = 'same-origin';
  if (kind === 'site' || kind === 'admin') headers['cross-origin-opener-policy'] = 'same-origin';
  if (opts.https) headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return headers;
};
