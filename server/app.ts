import { withRedaction } from './core/log-redaction.ts';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { adminApiPrefix } from '../engine/wire/admin-types.ts';
import { apiPrefix } from '../engine/wire/api-types.ts';
import { createFrozenSet } from './players/frozen-set.ts';
import { createAuthenticate } from './players/authenticate.ts';
import { createServedRound } from './airdrop/served-round.ts';
import { createPuzzleSource, dailySecretOf } from './daily/exports.ts';
import { createClicks } from './clicks/exports.ts';
import { systemClock, type Clock } from './core/clock.ts';
import type { Config } from './background/settings.ts';
import type { Db } from './core/db/db.ts';
import { createDbProbe } from './core/db/probe.ts';
import { startProcessMetrics, trackDatabase } from './core/metrics.ts';
import { airdropMetrics } from './airdrop/exports.ts';
import { broadcastMetrics } from './bot/exports.ts';
import { clickMetrics } from './clicks/exports.ts';
import { leaderboardMetrics } from './leaderboard/exports.ts';
import { readyzChecked } from './core/shutdown.ts';
import { seedTasks } from './tasks/tasks.ts';
import { createLoadShedding } from './core/load-shedding.ts';
import { installErrorHandler } from './routes/error-handler.ts';
import { healthRoutes, installHttpMetrics } from './routes/health.ts';
import { installValidation } from './routes/validation.ts';
import { consoleContextOf, type RouteContext } from './routes/route-context.ts';
import { airdropConsoleRoutes, airdropRoutes } from './routes/airdrop.ts';
import { auditConsoleRoutes } from './routes/audit.ts';
import { backgroundRoutes } from './routes/background.ts';
import { boostRoutes } from './routes/boosts.ts';
import { botRoutes } from './routes/bot.ts';
import { clickRoutes } from './routes/clicks.ts';
import { consoleRoutes, consoleSignInRoutes } from './routes/console.ts';
import { dailyConsoleRoutes, dailyRoutes } from './routes/daily.ts';
import { forecastConsoleRoutes, forecastRoutes } from './routes/forecast.ts';
import { integrityConsoleRoutes, integrityRoutes } from './routes/integrity.ts';
import { leaderboardRoutes } from './routes/leaderboard.ts';
import { playerRoutes } from './routes/players.ts';
import { referralRoutes } from './routes/referrals.ts';
import { shopConsoleRoutes, shopRoutes } from './routes/shop.ts';
import { taskRoutes } from './routes/tasks.ts';
import { xAccountRoutes } from './routes/x-account.ts';
import type { RedisHandle } from './core/redis.ts';
import type { OutsideServices } from './tasks/task-evidence.ts';

export interface AppDeps {
  db: Db;
  config: Config;
  /** The server's clock (default: the system clock). */
  clock?: Clock;
  /** Outside services; without them, tasks that need one are refused (fail closed). */
  services?: OutsideServices;
  /** REDIS_URL's connection (server/core/redis.ts); optional everywhere. */
  redis?: RedisHandle;
  /** Fastify logger option (default off; main.ts turns it on). */
  logger?: boolean | object;
  /**
   * The social reads' database (leaderboard, friends, public stats, the console's reads): a
   * streaming replica while it is fresh (server/core/db/replica.ts). Default: `db` itself.
   */
  reads?: Db;
  /**
   * Shed overload with 503 past the SHED_* bounds (server/core/load-shedding.ts); main.ts turns it
   * on. Off by default: a test's own busy event loop must not refuse the test's requests.
   */
  loadShedding?: boolean;
  /** A bot runs on BOT_TOKEN (main.ts: not the development token); default false. */
  realBot?: boolean;
  /** True once shutdown has begun: /readyz answers 503 (default: server/core/shutdown.ts's). */
  draining?: (checker: string) => boolean;
}

/**
 * Builds the API: every route under apiPrefix, the OpenAPI document at `${apiPrefix}/openapi.json`,
 * tasks seeded from server/tasks/seed-tasks.json. Binds no port (main.ts listens; tests use inject).
 */
export const createApp = async (deps: AppDeps): Promise<FastifyInstance> => {
  // In front of Fastify, so that a shed request costs nothing else (docs/faults.md "Overload").
  const shedding = deps.loadShedding === true ? createLoadShedding(deps.config) : undefined;
  const app = Fastify({
    ...(shedding !== undefined ? { serverFactory: shedding.serverFactory } : {}),
    // Request logs never carry the secrets some callbacks put in the query string.
    logger: withRedaction(deps.logger),
    // Prototype poisoning in JSON is refused, not stripped.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    bodyLimit: 65_536,
    trustProxy: deps.config.TRUST_PROXY,
  });
  installValidation(app);
  installErrorHandler(app);
  if (shedding !== undefined) {
    shedding.start(app.log);
    app.addHook('onClose', async () => shedding.stop());
  }
  const probe = createDbProbe(deps.db);
  // Metrics only with METRICS_TOKEN (docs/operations.md): off, no request pays for them.
  if (deps.config.METRICS_TOKEN !== undefined) {
    startProcessMetrics();
    installHttpMetrics(app);
    // A probe that fails for a missing migration still reached the database.
    const untrack = trackDatabase('requests', async () => {
      const r = await probe();
      return r.ok || r.reason !== 'database';
    });
    app.addHook('onClose', async () => untrack());
  }

  const clock = deps.clock ?? systemClock;
  await seedTasks(deps.db);
  // Frozen players (docs/admin.md "Freeze"): refused at the auth hook from an in-memory set.
  const frozen = createFrozenSet(deps.db);
  await frozen.refresh();
  app.addHook('onClose', async () => frozen.stop());
  const airdrop = createServedRound(deps.db, clock, (err, round) => app.log.error({ err, round }, 'airdrop dictionary failed to load'));
  const ctx: RouteContext = {
    db: deps.db,
    reads: deps.reads ?? deps.db,
    config: deps.config,
    clock,
    ...(deps.services !== undefined ? { services: deps.services } : {}),
    ...(deps.redis !== undefined ? { redis: deps.redis } : {}),
    authenticate: createAuthenticate({ db: deps.db, config: deps.config, clock, frozen }),
    airdrop,
    realBot: deps.realBot ?? false,
    puzzles: createPuzzleSource(dailySecretOf(deps.config)),
    // Which device each player's batches come from, for the integrity review (server/integrity/devices.ts).
    clicks: createClicks(deps.db, clock, (err) => app.log.warn({ err }, 'device sighting not recorded')),
  };

  await app.register(swagger, {
    openapi: {
      // 3.1: nullable fields are written as type arrays (`['string', 'null']`), as JSON Schema does.
      openapi: '3.1.0',
      info: { title: 'MONEY airdrop API', version: '1.0.0', description: 'Tap-to-earn clicker API (spec §7). Amounts are decimal strings.' },
      components: {
        securitySchemes: {
          telegramInitData: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Telegram init data, raw or `tma <raw>`' },
        },
      },
    },
  });

  await app.register(
    async (api) => {
      // Each feature's routes for the player, the operator and the outside services (server/routes/<feature>.ts).
      for (const routes of [
        playerRoutes,
        clickRoutes,
        boostRoutes,
        referralRoutes,
        taskRoutes,
        leaderboardRoutes,
        xAccountRoutes,
        botRoutes,
        backgroundRoutes,
        dailyRoutes,
        shopRoutes,
        integrityRoutes,
        airdropRoutes,
        forecastRoutes,
      ])
        await api.register(routes, ctx);
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: apiPrefix },
  );
  // The operators' probes and /metrics, outside the API prefix (docs/operations.md).
  await app.register(healthRoutes, { db: deps.db, config: deps.config, probe, draining: deps.draining ?? readyzChecked });
  // The operator console's API (docs/admin.md), beside the game API: sign-in, then each feature's
  // console routes, each in the console's scope (the session check; server/routes/route-context.ts).
  await app.register(
    async (admin) => {
      const consoleCtx = consoleContextOf({ db: deps.db, reads: deps.reads ?? deps.db, config: deps.config, clock, frozen, airdrop });
      await admin.register(consoleSignInRoutes, consoleCtx);
      for (const routes of [consoleRoutes, auditConsoleRoutes, forecastConsoleRoutes, airdropConsoleRoutes, shopConsoleRoutes, dailyConsoleRoutes, integrityConsoleRoutes])
        await admin.register(routes, consoleCtx);
    },
    { prefix: adminApiPrefix },
  );
  return app;
};

/**
 * Every feature's metric series (docs/operations.md "Metrics"). A feature declares its series in the
 * core registry when its metrics.ts loads; the app imports them all here, so GET /metrics lists
 * every series from the start (at 0 where an alert reads it), whichever code a request loads first.
 */
export const featureSeries = { airdrop: airdropMetrics, broadcast: broadcastMetrics, clicks: clickMetrics, leaderboard: leaderboardMetrics } as const;
