/**
 * The tasks' outside services (docs/outside-services.md): Cloudflare Turnstile, the ads (Adsgram),
 * the partner exchanges' checks and the channel of the boost task. Composed into the server's one
 * schema by server/background/settings.ts; every key is the env variable's own name. Every
 * credential defaults to empty so the app starts without it, and a service whose credential is
 * empty refuses with a clear error (fail closed).
 */
import { z } from 'zod';
import { publicUrl } from '../core/config/outside-config.ts';
import { text, urlOrEmpty } from '../core/config/kinds.ts';
import type { CoreConfig } from '../core/config/config.ts';

export const tasksSettings = {
  // Cloudflare Turnstile
  TURNSTILE_SECRET: text,
  TURNSTILE_VERIFY_URL: z.url().default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  /** Comma-separated hostnames siteverify may report; empty = the host of PUBLIC_URL. */
  TURNSTILE_HOSTNAMES: text,
  // Ads (Adsgram)
  /** HMAC secret of the /start-watch-ads token; empty turns ad rewards off. */
  ADS_TOKEN_SECRET: text,
  ADS_TOKEN_TTL_S: z.coerce.number().int().min(30).max(3_600).default(300),
  /** The `key` query value Adsgram's reward callback must carry; empty closes the callback. */
  ADSGRAM_CALLBACK_KEY: text,
  // Partner exchanges
  ONUS_CHECK_URL: urlOrEmpty,
  ONUS_API_KEY: text,
  BINGX_CHECK_URL: urlOrEmpty,
  BINGX_API_KEY: text,
  /** The channel of the boost task (@username or -100… id); empty = derived from CHANNEL_URL. */
  BOOST_CHANNEL_ID: text,
};

/** The keys the tasks' outside services read: their own and the core's they need. */
export type TasksConfig = z.output<z.ZodObject<typeof tasksSettings>> &
  Pick<CoreConfig, 'PUBLIC_URL' | 'PORT' | 'CHANNEL_URL' | 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS'>;

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);

export const turnstileHostnames = (c: Pick<TasksConfig, 'TURNSTILE_HOSTNAMES' | 'PUBLIC_URL' | 'PORT'>): string[] =>
  c.TURNSTILE_HOSTNAMES ? list(c.TURNSTILE_HOSTNAMES) : [new URL(publicUrl(c)).hostname];

/** https://t.me/money_channel → @money_channel; a configured id wins. */
export const boostChannelId = (c: Pick<TasksConfig, 'BOOST_CHANNEL_ID' | 'CHANNEL_URL'>): string => {
  if (c.BOOST_CHANNEL_ID) return c.BOOST_CHANNEL_ID;
  const name = new URL(c.CHANNEL_URL).pathname.split('/').filter(Boolean)[0] ?? '';
  return name ? `@${name}` : '';
};
