/**
 * A stand-in for X (Twitter) OAuth 2 with PKCE and `GET /2/users/me`, as strict as X
 * (https://docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code):
 * the authorize page refuses an unknown client, a callback URL the app did not register and a
 * missing S256 challenge; it "consents" at once as `settings.nextUser` and redirects with a code.
 * The token endpoint needs the client's Basic credentials, the same redirect_uri, a code used once
 * and within 30 s, and a code_verifier whose S256 is the challenge. Tests and the demo share it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { startFakeServer, type FakeServer } from './fake-server.ts';

export interface FakeXUser {
  id: string;
  username: string;
  profile_image_url: string;
  /** ISO date of account creation. */
  created_at: string;
}

export interface FakeX extends FakeServer {
  authorizeUrl: string;
  tokenUrl: string;
  usersMeUrl: string;
  clientId: string;
  clientSecret: string;
  /** `nextUser` logs in at the authorize page; `tokenDelayMs` answers the token call late. */
  settings: { nextUser: FakeXUser; tokenDelayMs: number };
}

const b64url = (buf: Buffer) => buf.toString('base64url');

/** X: an authorization code is valid for 30 seconds. */
export const xCodeTtlMs = 30_000;

/** The config that points the X login at this fake. */
export const xSettings = (x: FakeX) => ({
  X_CLIENT_ID: x.clientId,
  X_CLIENT_SECRET: x.clientSecret,
  X_AUTHORIZE_URL: x.authorizeUrl,
  X_TOKEN_URL: x.tokenUrl,
  X_USERS_ME_URL: x.usersMeUrl,
});

/** `callbackUrls` are the app's registered callback URLs; any other redirect_uri is refused. */
export const startFakeX = async (callbackUrls: readonly string[], clientId = 'x-client', clientSecret = 'x-secret'): Promise<FakeX> => {
  const codes = new Map<string, { challenge: string; redirectUri: string; user: FakeXUser; issuedAtMs: number }>();
  const tokens = new Map<string, FakeXUser>();
  const settings = {
    nextUser: { id: '1001', username: 'moneymaker', profile_image_url: 'https://pbs.example/1001.jpg', created_at: '2015-03-01T00:00:00.000Z' },
    tokenDelayMs: 0,
  };
  const server = await startFakeServer((req) => {
    if (req.method === 'GET' && req.path === '/i/oauth2/authorize') {
      const q = req.query;
      const redirectUri = q.get('redirect_uri') ?? '';
      if (q.get('client_id') !== clientId || q.get('code_challenge_method') !== 'S256' || q.get('response_type') !== 'code' || !q.get('code_challenge') || !q.get('state')) {
        return { status: 400, json: { error: 'invalid_request' } };
      }
      if (!callbackUrls.includes(redirectUri)) return { status: 400, json: { error: 'invalid_request', error_description: 'redirect_uri is not registered' } };
      const code = b64url(randomBytes(16));
      codes.set(code, { challenge: q.get('code_challenge') ?? '', redirectUri, user: { ...settings.nextUser }, issuedAtMs: Date.now() });
      const to = new URL(redirectUri);
      to.searchParams.set('state', q.get('state') ?? '');
      to.searchParams.set('code', code);
      return { status: 302, headers: { location: to.toString() } };
    }
    if (req.method === 'POST' && req.path === '/2/oauth2/token') {
      const delayMs = settings.tokenDelayMs;
      const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== basic) return { status: 401, delayMs, json: { error: 'unauthorized_client' } };
      const f = req.fields;
      const entry = codes.get(String(f.code ?? ''));
      // A code is spent by any attempt to redeem it.
      codes.delete(String(f.code ?? ''));
      if (!entry || f.grant_type !== 'authorization_code' || f.redirect_uri !== entry.redirectUri || Date.now() - entry.issuedAtMs > xCodeTtlMs) {
        return { status: 400, delayMs, json: { error: 'invalid_grant' } };
      }
      const challenge = b64url(createHash('sha256').update(String(f.code_verifier ?? '')).digest());
      if (challenge !== entry.challenge) return { status: 400, delayMs, json: { error: 'invalid_grant', error_description: 'pkce' } };
      const accessToken = b64url(randomBytes(16));
      tokens.set(accessToken, entry.user);
      return { delayMs, json: { token_type: 'bearer', access_token: accessToken, expires_in: 7200, scope: 'users.read tweet.read' } };
    }
    if (req.method === 'GET' && req.path === '/2/users/me') {
      const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (!user) return { status: 401, json: { title: 'Unauthorized' } };
      return { json: { data: { ...user, name: user.username } } };
    }
    return { status: 404, json: {} };
  });
  return {
    ...server,
    authorizeUrl: `${server.url}/i/oauth2/authorize`,
    tokenUrl: `${server.url}/2/oauth2/token`,
    usersMeUrl: `${server.url}/2/users/me`,
    clientId,
    clientSecret,
    settings,
  };
};
