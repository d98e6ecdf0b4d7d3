/**
 * Console sessions (docs/admin.md "Sign-in"): a random token in an HttpOnly, SameSite=Strict
 * cookie (Secure under https) with an expiry; only its SHA-256 is stored. Every console route
 * checks the session and that its admin is still listed in ADMIN_IDS; every write also needs a
 * same-origin Origin (or Sec-Fetch-Site) and the session's CSRF token in a header.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { adminApiPrefix, csrfHeader } from '../../engine/wire/admin-types.ts';
import { consoleActor, type Actor } from '../audit/exports.ts';
import type { Clock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import { refuse, type Refusal } from '../core/errors.ts';

export const sessionCookie = 'money_admin';

export interface AdminIdentity {
  adminId: number;
  name: string;
  csrfToken: string;
  expiresAtMs: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminIdentity;
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The cookie's value from a Cookie header, without a cookie parser dependency. */
export const cookieValue = (header: string | undefined, name: string): string | undefined => {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
};

const isHttps = (request: FastifyRequest, publicUrl: string | undefined) => request.protocol === 'https' || (publicUrl?.startsWith('https://') ?? false);

export const sessionCookieHeader = (request: FastifyRequest, token: string, maxAgeS: number, publicUrl: string | undefined): string =>
  [`${sessionCookie}=${token}`, `Path=${adminApiPrefix}`, `Max-Age=${maxAgeS}`, 'HttpOnly', 'SameSite=Strict', ...(isHttps(request, publicUrl) ? ['Secure'] : [])].join('; ');

export const clearedCookieHeader = (request: FastifyRequest, publicUrl: string | undefined): string => sessionCookieHeader(request, '', 0, publicUrl);

export interface SessionDeps {
  db: Db;
  clock: Clock;
  adminIds: ReadonlySet<number>;
  ttlS: number;
  publicUrl: string | undefined;
}

/** Creates a session for an admin; returns the cookie token (the caller sets it) and the identity. */
export const createSession = async (deps: SessionDeps, adminId: number, name: string): Promise<{ token: string; identity: AdminIdentity }> => {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(24).toString('base64url');
  const nowMs = deps.clock.now();
  const expiresAtMs = nowMs + deps.ttlS * 1_000;
  // Expired sessions are swept here, at sign-in (rare), by their index.
  await deps.db.query('DELETE FROM admin_sessions WHERE expires_at_ms < $1', [nowMs]);
  await deps.db.query('INSERT INTO admin_sessions (token_hash, admin_id, csrf_token, created_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4, $5)', [
    sha256(token), adminId, csrfToken, nowMs, expiresAtMs,
  ]);
  return { token, identity: { adminId, name, csrfToken, expiresAtMs } };
};

export const deleteSession = async (db: Db, request: FastifyRequest): Promise<void> => {
  const token = cookieValue(request.headers.cookie, sessionCookie);
  if (token) await db.query('DELETE FROM admin_sessions WHERE token_hash = $1', [sha256(token)]);
};

/** The origins a write may come from: the configured public origin, and the one the request was addressed to. */
const allowedOrigins = (request: FastifyRequest, publicUrl: string | undefined): Set<string> => {
  const set = new Set<string>([`${request.protocol}://${request.headers.host ?? ''}`]);
  if (publicUrl) set.add(new URL(publicUrl).origin);
  return set;
};

/** A cross-site write is refused: Sec-Fetch-Site must be same-origin when present, and Origin must be ours. */
export const checkSameOrigin = (request: FastifyRequest, publicUrl: string | undefined): Refusal | null => {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return refuse('crossSiteRefused');
  const origin = request.headers.origin;
  if (origin === undefined || !allowedOrigins(request, publicUrl).has(origin)) return refuse('foreignOrigin');
  return null;
};

const safeEqual = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The onRequest hook of every console route but sign-in: refuses a request without a valid session. */
export const createAdminGuard = (deps: SessionDeps) =>
  async function adminGuard(request: FastifyRequest): Promise<void> {
    const token = cookieValue(request.headers.cookie, sessionCookie);
    if (!token || token.length > 128) throw refuse('signInRequired');
    const r = await deps.db.query<{ admin_id: number; csrf_token: string; expires_at_ms: number }>(
      'SELECT admin_id, csrf_token, expires_at_ms FROM admin_sessions WHERE token_hash = $1',
      [sha256(token)],
    );
    const s = r.rows[0];
    if (s === undefined) throw refuse('sessionNotFound');
    if (Number(s.expires_at_ms) <= deps.clock.now()) throw refuse('sessionExpired');
    const adminId = Number(s.admin_id);
    if (!deps.adminIds.has(adminId)) throw refuse('notAnAdmin');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const cross = checkSameOrigin(request, deps.publicUrl);
      if (cross) throw cross;
      const presented = request.headers[csrfHeader];
      if (typeof presented !== 'string' || !safeEqual(presented, s.csrf_token)) throw refuse('csrfMissing', { values: { header: csrfHeader } });
    }
    request.admin = { adminId, name: String(adminId), csrfToken: s.csrf_token, expiresAtMs: Number(s.expires_at_ms) };
  };

export const adminOf = (request: FastifyRequest): AdminIdentity => {
  if (request.admin === undefined) throw refuse('signInRequired');
  return request.admin;
};

/** The signed-in admin as the actor of an operator action (its audit row names them). */
export const actorOf = (request: FastifyRequest): Actor => consoleActor(adminOf(request).adminId);
