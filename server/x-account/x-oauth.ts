/**
 * X (Twitter) OAuth 2 authorization code flow with PKCE (S256), and `GET /2/users/me`
 * (https://developer.x.com/en/docs/authentication/oauth-2-0/authorization-code).
 * The state store (user binding, single use, TTL) lives in x-state-store.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { asRecord, OutsideServiceError, requestJson, requireSettings } from '../core/outside-http.ts';

export interface XOAuthOptions {
  clientId: string;
  /** Empty for a public client; set for a confidential client (HTTP Basic at the token URL). */
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  usersMeUrl: string;
  /** Our callback, registered with X: …/callback/twitter. */
  callbackUrl: string;
  scopes: string;
  timeoutMs: number;
}

export interface XAccount {
  id: string;
  username: string;
  avatar: string | null;
  /** Account creation, epoch ms. */
  createdAtMs: number;
}

/** 32 random bytes: 256 bits, base64url (43 characters). Used for state and the PKCE verifier. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** RFC 7636 S256: base64url(SHA-256(verifier)). */
export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

export const requireXSettings = (opts: XOAuthOptions): void =>
  requireSettings('x', { X_CLIENT_ID: opts.clientId, X_AUTHORIZE_URL: opts.authorizeUrl, X_TOKEN_URL: opts.tokenUrl, X_USERS_ME_URL: opts.usersMeUrl, X_CALLBACK_URL: opts.callbackUrl });

/** The URL the player's browser opens to consent. */
export const authorizeUrl = (opts: XOAuthOptions, state: string, codeVerifier: string): string => {
  const url = new URL(opts.authorizeUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: opts.clientId,
    redirect_uri: opts.callbackUrl,
    scope: opts.scopes,
    state,
    code_challenge: pkceChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
};

/** Exchanges an authorization code for an access token. */
export const exchangeCode = async (opts: XOAuthOptions, code: string, codeVerifier: string): Promise<string> => {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: opts.callbackUrl, code_verifier: codeVerifier, client_id: opts.clientId });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  if (opts.clientSecret) headers.authorization = `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`;
  const answer = await requestJson('x', opts.tokenUrl, { method: 'POST', headers, body: form.toString() }, opts.timeoutMs);
  const body = answer.body && typeof answer.body === 'object' ? (answer.body as Record<string, unknown>) : {};
  if (answer.status === 400 || answer.status === 401) throw new OutsideServiceError('x', 'refused', String(body.error ?? answer.status));
  if (answer.status !== 200 || typeof body.access_token !== 'string') throw new OutsideServiceError('x', 'bad-response', `token status ${answer.status}`);
  return body.access_token;
};

/** Reads the consenting account: username, avatar and creation date. */
export const fetchMe = async (opts: XOAuthOptions, accessToken: string): Promise<XAccount> => {
  const url = new URL(opts.usersMeUrl);
  url.searchParams.set('user.fields', 'created_at,profile_image_url');
  const answer = await requestJson('x', url.toString(), { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, opts.timeoutMs);
  if (answer.status !== 200) throw new OutsideServiceError('x', 'bad-response', `users/me status ${answer.status}`);
  const data = asRecord('x', asRecord('x', answer.body).data);
  const createdAtMs = Date.parse(String(data.created_at));
  if (typeof data.id !== 'string' || typeof data.username !== 'string' || !Number.isFinite(createdAtMs)) {
    throw new OutsideServiceError('x', 'bad-response', 'users/me lacks id, username or created_at');
  }
  return {
    id: data.id,
    username: data.username,
    avatar: typeof data.profile_image_url === 'string' ? data.profile_image_url : null,
    createdAtMs,
  };
};

/** Whole days between account creation and now (never negative). */
export const accountAgeDays = (createdAtMs: number, nowMs: number): number => Math.max(0, Math.floor((nowMs - createdAtMs) / 86_400_000));
