/**
 * X (Twitter) OAuth 2 (docs/outside-services.md), composed into the server's one schema by
 * server/background/settings.ts; every key is the env variable's own name. The client's
 * credentials default to empty, so the app starts without them and the link refuses (fail closed).
 */
import { z } from 'zod';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { publicUrl } from '../core/config/outside-config.ts';
import { text, urlOrEmpty } from '../core/config/kinds.ts';
import type { CoreConfig } from '../core/config/config.ts';

export const xAccountSettings = {
  X_CLIENT_ID: text,
  X_CLIENT_SECRET: text,
  X_AUTHORIZE_URL: z.url().default('https://x.com/i/oauth2/authorize'),
  X_TOKEN_URL: z.url().default('https://api.x.com/2/oauth2/token'),
  X_USERS_ME_URL: z.url().default('https://api.x.com/2/users/me'),
  /** Our callback registered with X; empty = PUBLIC_URL + apiPrefix + /callback/twitter. */
  X_CALLBACK_URL: urlOrEmpty,
  X_SCOPES: z.string().trim().default('users.read tweet.read'),
  /** Comma-separated URLs redirect_to may start with (origin + path prefix); empty = PUBLIC_URL's origin. */
  X_REDIRECT_ALLOWLIST: text,
};

/** The keys the X link reads: its own and the core's it needs. */
export type XAccountConfig = z.output<z.ZodObject<typeof xAccountSettings>> & Pick<CoreConfig, 'PUBLIC_URL' | 'PORT' | 'OUTSIDE_TIMEOUT_MS'>;

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

export const xCallbackUrl = (c: Pick<XAccountConfig, 'X_CALLBACK_URL' | 'PUBLIC_URL' | 'PORT'>): string => c.X_CALLBACK_URL || `${publicUrl(c)}${apiPrefix}/callback/twitter`;

export const xRedirectAllowlist = (c: Pick<XAccountConfig, 'X_REDIRECT_ALLOWLIST' | 'PUBLIC_URL' | 'PORT'>): string[] =>
  c.X_REDIRECT_ALLOWLIST ? list(c.X_REDIRECT_ALLOWLIST) : [`${publicUrl(c)}/`];
