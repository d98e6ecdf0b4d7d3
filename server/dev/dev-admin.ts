/**
 * The console in development (docs/admin.md): with the development bot token and no ADMIN_IDS,
 * the demo player is the admin; GET /dev/admin signs a fresh console link for the first admin,
 * exactly as the bot's /admin button opens it (signed init data in the URL hash).
 */
import type { FastifyInstance } from 'fastify';
import { adminIdsOf } from '../console/exports.ts';
import { signInitData } from '../players/init-data.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../background/settings.ts';
import { demoUser } from './launch-url.ts';
import { refuse } from '../core/errors.ts';

/** The config with the demo player as admin when none is listed (development token only). */
export const withDevAdmin = (config: Config): Config => (config.ADMIN_IDS ? config : { ...config, ADMIN_IDS: String(demoUser.id) });

/** `<origin>/admin#tgWebAppData=…` signed for the first admin of the config. */
export const adminLaunchUrl = (opts: { publicUrl: string; botToken: string; config: Pick<Config, 'ADMIN_IDS'>; nowMs: number }): string | null => {
  const [id] = adminIdsOf(opts.config);
  if (id === undefined) return null;
  const user = id === demoUser.id ? demoUser : { id, first_name: 'Admin', username: `admin_${id}` };
  const initData = signInitData(opts.botToken, { user }, opts.nowMs);
  return `${opts.publicUrl.replace(/\/+$/, '')}/admin#${new URLSearchParams({ tgWebAppData: initData, tgWebAppPlatform: 'web' })}`;
};

/** GET /dev/admin → a freshly signed console link. Registered only with the development token. */
export const registerDevAdmin = (app: FastifyInstance, opts: { botToken: string; clock: Clock; config: Config }): void => {
  app.get('/dev/admin', (_req, reply) => {
    const url = adminLaunchUrl({ publicUrl: '', botToken: opts.botToken, config: opts.config, nowMs: opts.clock.now() });
    if (url === null) throw refuse('devNoAdminIds');
    return reply.header('cache-control', 'no-store').redirect(url, 302);
  });
};
