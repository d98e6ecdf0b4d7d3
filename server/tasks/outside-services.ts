/**
 * The real OutsideServices of createApp: Turnstile (single use in our database), the partner
 * exchanges' checks, and the Bot API's getUserChatBoosts. Each reads its base URL and credentials
 * from config; an unconfigured or unreachable service refuses (fail closed).
 */
import { createHash } from 'node:crypto';
import { Api, GrammyError } from 'grammy';
import type { Clock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import type { OutsideServices } from './task-evidence.ts';
import { checkExchangeAccount, type ExchangeCheckOptions } from './exchange-check.ts';
import { OutsideServiceError } from '../core/outside-http.ts';
import { boostChannelId, turnstileHostnames, type TasksConfig } from './settings.ts';
import { maxTurnstileTokenLength, siteverify, type TurnstileOptions } from './turnstile.ts';

export interface OutsideServicesDeps {
  db: Db;
  config: TasksConfig;
  clock: Clock;
  /** Where refusals are explained (default: console.warn). */
  log?: (message: string) => void;
}

export const turnstileOptions = (c: TasksConfig): TurnstileOptions => ({
  verifyUrl: c.TURNSTILE_VERIFY_URL,
  secret: c.TURNSTILE_SECRET,
  hostnames: turnstileHostnames(c),
  timeoutMs: c.OUTSIDE_TIMEOUT_MS,
});

export const exchangeOptions = (c: TasksConfig): ExchangeCheckOptions => ({
  endpoints: {
    CHECK_ONUS: { checkUrl: c.ONUS_CHECK_URL, apiKey: c.ONUS_API_KEY },
    CHECK_BINGX: { checkUrl: c.BINGX_CHECK_URL, apiKey: c.BINGX_API_KEY },
  },
  timeoutMs: c.OUTSIDE_TIMEOUT_MS,
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Turnstile, single use: the token's hash is recorded first (a replay finds it and is refused
 * without asking Cloudflare), then siteverify decides. A token spent on a failed check stays spent.
 */
export const verifyCaptchaOnce = async (
  deps: OutsideServicesDeps,
  token: string,
  action: string,
  remoteIp?: string,
): Promise<{ ok: boolean; reason: string }> => {
  if (typeof token !== 'string' || token === '' || token.length > maxTurnstileTokenLength) return { ok: false, reason: 'malformed token' };
  const opts = turnstileOptions(deps.config);
  if (!opts.secret) return { ok: false, reason: 'turnstile: unconfigured (missing TURNSTILE_SECRET)' };
  const fresh = await deps.db.query(
    'INSERT INTO captcha_tokens_used (token_hash, action, used_at_ms) VALUES ($1, $2, $3) ON CONFLICT (token_hash) DO NOTHING',
    [sha256(token), action, deps.clock.now()],
  );
  if (fresh.rowCount === 0) return { ok: false, reason: 'token already used' };
  try {
    const verdict = await siteverify(opts, token, action, remoteIp);
    return verdict.ok ? { ok: true, reason: '' } : { ok: false, reason: verdict.reason };
  } catch (err) {
    return { ok: false, reason: err instanceof OutsideServiceError ? err.detail : String(err) };
  }
};

/** One Bot API call about a user in the configured channel, with its refusals and faults typed. */
const inChannel = async <T>(config: TasksConfig, telegramUserId: string, call: (api: Api, chat: string, userId: number) => Promise<T>): Promise<T> => {
  const chat = boostChannelId(config);
  if (!config.BOT_TOKEN || !chat) throw new OutsideServiceError('telegram', 'unconfigured', 'missing BOT_TOKEN or BOOST_CHANNEL_ID');
  const userId = Number(telegramUserId);
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new OutsideServiceError('telegram', 'refused', 'bad user id');
  const api = new Api(config.BOT_TOKEN, { apiRoot: config.BOT_API_ROOT, timeoutSeconds: Math.ceil(config.OUTSIDE_TIMEOUT_MS / 1000) });
  try {
    return await call(api, chat, userId);
  } catch (err) {
    if (err instanceof GrammyError) throw new OutsideServiceError('telegram', 'refused', `${err.error_code} ${err.description}`, { cause: err });
    throw new OutsideServiceError('telegram', 'unreachable', err instanceof Error ? err.message : String(err), { cause: err });
  }
};

/** getUserChatBoosts for the configured channel: how many active boosts the user has there. */
export const countBoosts = (config: TasksConfig, telegramUserId: string): Promise<number> =>
  inChannel(config, telegramUserId, async (api, chat, userId) => (await api.getUserChatBoosts(chat, userId)).boosts.length);

/** getChatMember in the configured channel: is the user a member now (§9's channel rule)? */
export const isChannelMember = (config: TasksConfig, telegramUserId: string): Promise<boolean> =>
  inChannel(config, telegramUserId, async (api, chat, userId) => {
    const m = await api.getChatMember(chat, userId);
    return m.status === 'creator' || m.status === 'administrator' || m.status === 'member' || (m.status === 'restricted' && m.is_member);
  });

export const createOutsideServices = (deps: OutsideServicesDeps): OutsideServices => {
  const log = deps.log ?? ((m: string) => console.warn(m));
  const exchanges = exchangeOptions(deps.config);
  // The client sees a URL-free 503; the cause is logged here.
  const logged = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      log(err instanceof OutsideServiceError ? err.detail : `outside service failed: ${String(err)}`);
      throw err;
    });
  return {
    verifyCaptcha: async (token, action, remoteIp) => {
      const v = await verifyCaptchaOnce(deps, token, action, remoteIp);
      if (!v.ok) log(`captcha refused: ${v.reason}`);
      return v.ok;
    },
    // Throws OutsideServiceError when the partner is unconfigured or down: the caller answers 503,
    // which is not the same as "Your account is not registered via link" (a definite no).
    checkExchange: (handleType, uid) => logged(checkExchangeAccount(exchanges, handleType, uid)),
    countChannelBoosts: (telegramUserId) => logged(countBoosts(deps.config, telegramUserId)),
  };
};
