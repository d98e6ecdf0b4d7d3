/**
 * Linking a player's X account (§7 /social-login, /callback/twitter). The OAuth state has 256
 * random bits, is stored only as its SHA-256, is bound to the Telegram user, is single use
 * (consumed by one conditional UPDATE) and lives 10 minutes. The callback sets twUsername, twAvatar
 * and twAge; the pending claim reward follows from them (welcomeReward in engine/rules/rewards.ts), and
 * a player who already claimed it is paid its X part then (payXAgeReward).
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../core/clock.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { payXAgeReward } from '../boosts/exports.ts';
import { refuse } from '../core/errors.ts';
import { OutsideServiceError } from '../core/outside-http.ts';
import { xCallbackUrl, xRedirectAllowlist, type XAccountConfig } from './settings.ts';
import { accountAgeDays, authorizeUrl, exchangeCode, fetchMe, randomToken, requireXSettings, type XOAuthOptions } from './x-oauth.ts';
import { transaction } from '../core/db/transaction.ts';

/** docs/rules.md §12: the OAuth state lives 10 minutes. */
export const xStateTtlMs = 10 * 60 * 1000;

export const xOptions = (c: XAccountConfig): XOAuthOptions => ({
  clientId: c.X_CLIENT_ID,
  clientSecret: c.X_CLIENT_SECRET,
  authorizeUrl: c.X_AUTHORIZE_URL,
  tokenUrl: c.X_TOKEN_URL,
  usersMeUrl: c.X_USERS_ME_URL,
  callbackUrl: xCallbackUrl(c),
  scopes: c.X_SCOPES,
  timeoutMs: c.OUTSIDE_TIMEOUT_MS,
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * True when `target` is an absolute http(s) URL with the same origin as an allowlist entry and a
 * path under the entry's path (so https://app.example is not fooled by https://app.example.evil).
 */
export const isAllowedRedirect = (target: string, allowlist: readonly string[]): boolean => {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  return allowlist.some((entry) => {
    try {
      const allowed = new URL(entry);
      const base = allowed.pathname.endsWith('/') ? allowed.pathname : `${allowed.pathname}/`;
      return url.origin === allowed.origin && (url.pathname === allowed.pathname || url.pathname.startsWith(base));
    } catch {
      return false;
    }
  });
};

/** Adds the outcome to redirect_to: `x_connect=ok`, or `x_connect=error&x_error=<reason>`. */
export const withOutcome = (redirectTo: string, error?: string): string => {
  const url = new URL(redirectTo);
  url.searchParams.set('x_connect', error === undefined ? 'ok' : 'error');
  if (error !== undefined) url.searchParams.set('x_error', error);
  return url.toString();
};

export interface XDeps {
  db: Db;
  config: XAccountConfig;
  clock: Clock;
}

/**
 * Stores a fresh state for the player and returns X's consent URL. Refuses a redirect_to off the
 * allowlist; X unconfigured throws its OutsideServiceError (a 503 that names no setting).
 */
export const beginXLogin = async (deps: XDeps, userId: number, redirectTo: string): Promise<{ authUrl: string }> => {
  if (!isAllowedRedirect(redirectTo, xRedirectAllowlist(deps.config))) throw refuse('redirectNotAllowed', { field: 'redirect_to' });
  const opts = xOptions(deps.config);
  requireXSettings(opts);
  // The fragment is dropped: in the mini-app it carries Telegram's signed init data, which must not
  // be stored nor handed to another browser.
  const target = new URL(redirectTo);
  target.hash = '';
  const state = randomToken();
  const verifier = randomToken();
  const now = deps.clock.now();
  await deps.db.query(
    `INSERT INTO x_oauth_states (state_hash, user_id, code_verifier, redirect_to, created_at_ms, expires_at_ms)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [sha256(state), userId, verifier, target.toString(), now, now + xStateTtlMs],
  );
  return { authUrl: authorizeUrl(opts, state, verifier) };
};

/** Where the callback sends the browser; refuses a state that is unknown, used or expired. */
export const completeXLogin = async (deps: XDeps, q: { state: string; code?: string; error?: string }): Promise<{ redirect: string }> => {
  const now = deps.clock.now();
  // Consuming the state first makes it single use even when the rest fails.
  const consumed = await deps.db.query<{ user_id: number; code_verifier: string; redirect_to: string }>(
    `UPDATE x_oauth_states SET used_at_ms = $2
      WHERE state_hash = $1 AND used_at_ms IS NULL AND expires_at_ms > $2
      RETURNING user_id, code_verifier, redirect_to`,
    [sha256(q.state), now],
  );
  const row = consumed.rows[0];
  if (row === undefined) throw refuse('xLoginStateInvalid', { field: 'state' });
  if (q.error !== undefined && q.error !== '') return { redirect: withOutcome(row.redirect_to, q.error === 'access_denied' ? 'access_denied' : 'x_error') };
  if (!q.code) return { redirect: withOutcome(row.redirect_to, 'missing_code') };
  const opts = xOptions(deps.config);
  let account;
  try {
    const token = await exchangeCode(opts, q.code, row.code_verifier);
    account = await fetchMe(opts, token);
  } catch (err) {
    const reason = err instanceof OutsideServiceError ? (err.failure === 'refused' ? 'x_refused' : 'x_unavailable') : 'x_unavailable';
    return { redirect: withOutcome(row.redirect_to, reason) };
  }
  const twAge = accountAgeDays(account.createdAtMs, now);
  const linked = await transaction(deps.db, async (tx) => {
    // The first player to link an X account keeps it: another player linking it is refused.
    const owner = await tx.query<{ user_id: number }>(
      `INSERT INTO x_accounts (tw_user_id, user_id, linked_at_ms) VALUES ($1, $2, $3)
       ON CONFLICT (tw_user_id) DO UPDATE SET linked_at_ms = EXCLUDED.linked_at_ms WHERE x_accounts.user_id = EXCLUDED.user_id
       RETURNING user_id`,
      [account.id, row.user_id, now],
    );
    if (owner.rows.length === 0) return false;
    await tx.query('UPDATE users SET tw_username = $2, tw_avatar = $3, tw_age = $4 WHERE id = $1', [row.user_id, account.username, account.avatar, twAge]);
    // Connected after the welcome claim: its X part is paid now, once.
    await payXAgeReward(tx, row.user_id, now);
    return true;
  });
  return { redirect: withOutcome(row.redirect_to, linked ? undefined : 'already_linked') };
};

/** In the caller's transaction (the daily reset): the sign-in states past their expiry, whether used or not. */
export const pruneXStates = async (tx: Queryable, nowMs: number): Promise<number> =>
  (await tx.query('DELETE FROM x_oauth_states WHERE expires_at_ms <= $1', [nowMs])).rowCount;
