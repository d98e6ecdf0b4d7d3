/** The console on top of the route harness: an app whose config lists admins, and signed-in sessions. */
import type { LightMyRequestResponse } from 'fastify';
import { adminApiPrefix, csrfHeader, type AdminSession } from '../../engine/wire/admin-types.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { botToken, openHarness, type Backend, type Harness } from './harness.ts';

export const adminId = 7_700_000_001;
export const otherAdminId = 7_700_000_002;
export const operatorKey = 'operator-key-for-tests-0123456789';
/** light-my-request addresses the app as localhost:80. */
export const origin = 'http://localhost:80';

export interface AdminHarness extends Harness {
  /** Signs in through the init-data path; returns the cookie header value and the session. */
  signIn(id?: number): Promise<{ cookie: string; session: AdminSession; setCookie: string }>;
  admin(method: 'GET' | 'POST' | 'PUT', path: string, auth: { cookie: string; session: AdminSession } | null, opts?: { body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
}

export interface SignedInAdminHarness extends AdminHarness {
  /** The first admin's session, signed in when the harness opened. */
  session: Awaited<ReturnType<AdminHarness['signIn']>>;
}

/** The console harness with the first admin already signed in. */
export const openSignedInAdmin = async (backend: Backend): Promise<SignedInAdminHarness> => {
  const h = await openAdminHarness(backend);
  return { ...h, session: await h.signIn() };
};

export const openAdminHarness = async (backend: Backend, env: Record<string, string> = {}): Promise<AdminHarness> => {
  const h = await openHarness(backend, undefined, { ADMIN_IDS: `${adminId}, ${otherAdminId}`, OPERATOR_API_KEY: operatorKey, ...env });
  const admin: AdminHarness['admin'] = (method, path, auth, opts = {}) =>
    h.app.inject({
      method,
      url: `${adminApiPrefix}${path}`,
      headers: {
        ...(auth ? { cookie: auth.cookie } : {}),
        ...(auth && method !== 'GET' ? { origin, [csrfHeader]: auth.session.csrfToken } : {}),
        ...opts.headers,
      },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    });
  return {
    ...h,
    admin,
    signIn: async (id = adminId) => {
      const initData = signInitData(botToken, { user: { id, first_name: 'Op', username: `op${id}` } }, h.clock.now());
      const r = await h.app.inject({ method: 'POST', url: `${adminApiPrefix}/login/init-data`, headers: { origin }, payload: { initData } });
      if (r.statusCode !== 200) throw new Error(`sign-in failed: ${r.statusCode} ${r.body}`);
      const setCookie = String(r.headers['set-cookie']);
      return { cookie: setCookie.split(';')[0]!, session: r.json<AdminSession>(), setCookie };
    },
  };
};
