/**
 * Console sign-in (docs/admin.md "Sign-in"): the Telegram Login Widget's signed fields, or the
 * init data Telegram gives /admin when the bot's /admin button opens it. Only ADMIN_IDS get a
 * session. Sign-in itself is refused cross-site (login CSRF).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AdminSession } from '../../engine/wire/admin-types.ts';
import { initDataSecret, verifyInitData } from '../players/exports.ts';
import { consoleActor, recordAudit } from '../audit/exports.ts';
import { actorOf, adminOf, checkSameOrigin, clearedCookieHeader, createSession, deleteSession, sessionCookieHeader, verifyLoginWidget } from '../console/exports.ts';
import { refuse } from '../core/errors.ts';
import type { AdminContext } from './admin-context.ts';
import { emptyBody, obj } from './validation.ts';

const sessionOf = (i: { adminId: number; name: string; csrfToken: string; expiresAtMs: number }): AdminSession => ({
  adminId: i.adminId,
  name: i.name,
  csrfToken: i.csrfToken,
  expiresAtMs: i.expiresAtMs,
});

export const adminAuthRoutes: FastifyPluginAsync<AdminContext> = async (app, ctx) => {
  const botToken = ctx.config.BOT_TOKEN!;
  const secret = initDataSecret(botToken);
  const maxAgeS = ctx.config.ADMIN_LOGIN_MAX_AGE_S;

  const signIn = async (request: Parameters<typeof checkSameOrigin>[0], adminId: number, name: string) => {
    const cross = checkSameOrigin(request, ctx.config.PUBLIC_URL);
    if (cross) throw cross;
    if (!ctx.session.adminIds.has(adminId)) throw refuse('notAnAdmin');
    const { token, identity } = await createSession(ctx.session, adminId, name);
    await recordAudit(ctx.db, { actor: consoleActor(adminId), action: 'session.sign-in', target: `admin:${adminId}`, nowMs: ctx.clock.now() });
    return { token, identity };
  };

  // The one body that takes fields it does not name: every field is Telegram's and signed (the
  // data-check-string covers them all), so a field Telegram adds must not lock admins out.
  const widgetBody = { type: 'object', maxProperties: 12, propertyNames: { pattern: '^[a-z_]{1,32}$' }, additionalProperties: { type: ['string', 'number'], maxLength: 512 } } as const;
  app.post('/login/widget', { schema: { hide: true, body: widgetBody } }, async (request, reply) => {
    const check = verifyLoginWidget(request.body as Record<string, unknown>, botToken, ctx.clock.now(), maxAgeS);
    if (!check.ok) throw check.refusal;
    const { token, identity } = await signIn(request, check.userId, check.name);
    return reply.header('set-cookie', sessionCookieHeader(request, token, ctx.config.ADMIN_SESSION_TTL_S, ctx.config.PUBLIC_URL)).send(sessionOf(identity));
  });

  app.post(
    '/login/init-data',
    { schema: { hide: true, body: obj({ initData: { type: 'string', maxLength: 8192 } }, ['initData']) } },
    async (request, reply) => {
      const { initData } = request.body as { initData: string };
      if (initData.trim() === '') throw refuse('initDataRequired', { field: 'initData' });
      const check = verifyInitData(initData, secret, ctx.clock.now(), maxAgeS);
      if (!check.ok) throw refuse(check.code, { field: 'initData' });
      const u = check.data.user;
      const { token, identity } = await signIn(request, u.id, u.username ? `@${u.username}` : u.first_name);
      return reply.header('set-cookie', sessionCookieHeader(request, token, ctx.config.ADMIN_SESSION_TTL_S, ctx.config.PUBLIC_URL)).send(sessionOf(identity));
    },
  );

  app.get('/session', { onRequest: ctx.guard, schema: { hide: true } }, async (request) => sessionOf(adminOf(request)));

  app.post('/logout', { onRequest: ctx.guard, schema: { hide: true, body: emptyBody } }, async (request, reply) => {
    await deleteSession(ctx.db, request);
    await recordAudit(ctx.db, { actor: actorOf(request), action: 'session.sign-out', target: `admin:${adminOf(request).adminId}`, nowMs: ctx.clock.now() });
    return reply.header('set-cookie', clearedCookieHeader(request, ctx.config.PUBLIC_URL)).send({ ok: true });
  });
};
