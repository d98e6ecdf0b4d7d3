/**
 * `npm start`: reads the env once, builds the client when dist/ is stale, opens the database
 * (migrations applied), serves the site, the mini-app and the API on one port, runs the bot when
 * BOT_TOKEN is set, prints where to go, and shuts down cleanly on SIGTERM/SIGINT.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createApp } from './app.ts';
import { systemClock, type Clock } from './core/clock.ts';
import { demoStandInsOn } from './core/config/config.ts';
import { loadConfig, type Config } from './background/settings.ts';
import { openDb, type Db } from './core/db/db.ts';
import { openReplicaReads, type ReplicaReads } from './core/db/replica.ts';
import { adminLaunchUrl, registerDevAdmin, withDevAdmin } from './dev/dev-admin.ts';
import { openRedis } from './core/redis.ts';
import { offsetClock, registerDevLaunch, registerTestClock } from './dev/dev-routes.ts';
import { demoBanner, demoExchangeUid, registerDemoRoutes, startDemoStandIns } from './dev/demo-stand-ins.ts';
import { devTokenFile, resolveBotToken } from './dev/dev-token.ts';
import { launchUrl } from './dev/launch-url.ts';
import { ensureClientBuilt } from './web/build-client.ts';
import { publicConfigOf } from './web/public-config.ts';
import { registerWeb } from './web/web-plugin.ts';
import { startOutsideBackground, stopBot } from './background/runtime.ts';
import { createOutsideServices } from './tasks/outside-services.ts';
import { pollsUpdates, startCluster } from './core/cluster.ts';
import { serveClusterMetrics } from './core/metrics.ts';
import { balancersNoticed, drainable, installShutdown, type Drainable } from './core/shutdown.ts';
import { stopTracing, tracingStarted } from './core/tracing.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const readConfig = (): Config => {
  try {
    return loadConfig(process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
};

const listeningPort = (app: FastifyInstance, fallback: number): number => {
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : fallback;
};

const main = async (): Promise<void> => {
  const config = readConfig();
  // Traces must start before pg, ioredis and fastify load: only the preload can (docs/operations.md "Traces").
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined && !tracingStarted())
    console.warn('OTEL_EXPORTER_OTLP_ENDPOINT is set but traces are off: start with `npm start`, or add --import ./server/tracing-preload.ts after --import tsx.');
  if (!config.SKIP_CLIENT_BUILD) ensureClientBuilt(root);

  const bot = resolveBotToken(config.BOT_TOKEN, config.DATA_DIR);
  // WORKERS > 1: this process only forks and watches the API workers (server/core/cluster.ts), and
  // merges their metrics for the worker a scrape reaches (server/core/metrics.ts).
  if (startCluster(config.WORKERS)) {
    if (config.METRICS_TOKEN !== undefined) serveClusterMetrics();
    return;
  }
  const testClock = config.TEST_MODE ? offsetClock() : undefined;
  const clock: Clock = testClock ?? systemClock;
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');

  // Without credentials (development), local stand-ins play the outside services (server/dev/demo-stand-ins.ts).
  const demo = demoStandInsOn(config) ? await startDemoStandIns(config, bot.token) : null;
  // Init data is checked with the development token when there is no BOT_TOKEN; no bot runs on it.
  // With the development token and no ADMIN_IDS, the demo player signs in to the console (docs/admin.md).
  const baseConfig: Config = { ...(demo?.config ?? config), BOT_TOKEN: bot.token };
  const runConfig: Config = bot.development ? withDevAdmin(baseConfig) : baseConfig;
  const db: Db = await openDb(config);
  // The jobs' long statements (a rank rebuild over every player) run on a small pool of their own,
  // bounded at 10 minutes instead of the request paths' 5 s (docs/faults.md); PGlite is one connection.
  const jobsDb: Db | undefined = config.DATABASE_URL !== undefined ? await openDb(config, { queryTimeoutMs: 600_000, poolSize: 3, migrate: false, poolName: 'jobs' }) : undefined;
  // The social reads on a streaming replica while it is fresh (docs/scaling.md "Read replica").
  const replica: ReplicaReads | undefined =
    config.DATABASE_REPLICA_URL !== undefined
      ? await openReplicaReads(db, await openDb({ ...config, DATABASE_URL: config.DATABASE_REPLICA_URL }, { migrate: false, poolName: 'replica' }), {
          maxLagMs: config.REPLICA_MAX_LAG_MS,
          checkMs: config.REPLICA_CHECK_MS,
          onChange: (state, lagMs) => console.log(`replica: social reads ${state === 'replica' ? 'on the replica' : `on the primary (${state}${Number.isFinite(lagMs) ? `, ${Math.round(lagMs)} ms behind` : ''})`}`),
        })
      : undefined;
  // Optional; a Redis fault never stops the server (server/core/redis.ts), ranks then come from PostgreSQL.
  const redis = config.REDIS_URL !== undefined ? openRedis(config.REDIS_URL, { prefix: config.REDIS_PREFIX }) : undefined;
  // The demo's Telegram stand-in is a Bot API the development token works with: the bot polls it, so
  // the demo's Stars payments reach pre-checkout and successful_payment like real ones (docs/shop.md).
  const botServed = !bot.development || demo?.telegram !== undefined;
  let app: FastifyInstance;
  let drain: Drainable;
  try {
    const services = createOutsideServices({ db, config: runConfig, clock });
    app = await createApp({ db, config: runConfig, clock, services, loadShedding: true, realBot: botServed, ...(replica !== undefined ? { reads: replica.reads } : {}), ...(redis !== undefined ? { redis } : {}), logger: config.NODE_ENV === 'production' ? { level: 'info' } : { level: 'warn' } });
    const publicConfig = { ...publicConfigOf(runConfig), ...(demo ? { demoServices: demo.services, demoExchangeUid } : {}) };
    // The assets' compressed forms are made in the background: a request that needs one before it
    // is ready waits for that one only, and the start does not wait for them all.
    registerWeb(app, { distDir: resolve(root, 'dist'), publicConfig, https: publicUrl.startsWith('https://') }).catch(
      (err: unknown) => console.error('Compressing the client assets failed:', err),
    );
    if (demo) registerDemoRoutes(app, demo, () => listeningPort(app, config.PORT));
    if (bot.development) registerDevLaunch(app, { botToken: bot.token, clock });
    if (bot.development) registerDevAdmin(app, { botToken: bot.token, clock, config: runConfig });
    if (testClock !== undefined) registerTestClock(app, testClock);
    // Follows the requests from the first one, so that SIGTERM answers every one in flight.
    drain = drainable(app);
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    await db.close().catch(() => {});
    await jobsDb?.close().catch(() => {});
    await replica?.close().catch(() => {});
    await demo?.close();
    await redis?.close();
    throw err;
  }

  // The bot, the broadcast worker (it resumes a queued broadcast) and the scheduled jobs.
  const background = await startOutsideBackground({ db, config: runConfig, clock, realBot: botServed, pollUpdates: pollsUpdates(), ...(redis !== undefined ? { redis } : {}), ...(jobsDb !== undefined ? { jobsDb } : {}) });

  // SIGTERM/SIGINT: bounded steps that never skip each other (server/core/shutdown.ts).
  installShutdown([
    // Serving on until the balancers polling /readyz have seen "draining" and send nothing new here.
    { name: 'balancers', timeoutMs: config.SHUTDOWN_NOTICE_MAX_MS + 500, run: () => balancersNoticed({ checks: config.SHUTDOWN_NOTICE_CHECKS, maxMs: config.SHUTDOWN_NOTICE_MAX_MS }) },
    { name: 'background', timeoutMs: 6_000, run: stopBot },
    // drainDefaults: accepting what is queued (2 s), the requests (6 s), the app's close (1.5 s).
    { name: 'requests', timeoutMs: 10_000, run: () => drain.drain() },
    { name: 'database', timeoutMs: 3_000, run: async () => void (await Promise.all([db.close(), jobsDb?.close(), replica?.close()])) },
    ...(redis !== undefined ? [{ name: 'redis', timeoutMs: 2_000, run: () => redis.close() }] : []),
    ...(demo ? [{ name: 'demo stand-ins', timeoutMs: 2_000, run: () => demo.close() }] : []),
    // The spans of the last requests, still buffered, leave before the process does.
    ...(tracingStarted() ? [{ name: 'traces', timeoutMs: 2_000, run: stopTracing }] : []),
  ]);

  const port = listeningPort(app, config.PORT);
  const site = config.PUBLIC_URL !== undefined ? publicUrl : `http://localhost:${port}`;
  const lines = [
    '',
    `MONEY is running on ${config.HOST}:${port} (${db.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${resolve(config.DATA_DIR, 'pglite')}`}).`,
    `  Site:         ${site}/`,
    `  Mini-app:     ${site}/app   (Telegram opens it with signed init data)`,
  ];
  if (config.NODE_ENV !== 'production') {
    const demo = launchUrl({ publicUrl: site, botToken: bot.token, nowMs: clock.now() });
    lines.push(`  Demo launch:  ${demo}`, `                (signed for @demo_player; valid ${Math.round(config.INIT_DATA_MAX_AGE_S / 3600)} h)`);
    const admin = adminLaunchUrl({ publicUrl: site, botToken: bot.token, config: runConfig, nowMs: clock.now() });
    if (admin !== null)
      lines.push(`  Admin sign-in: ${admin}`, `                (the console, signed for admin ${[...runConfig.ADMIN_IDS.split(',')][0]?.trim()}; valid ${Math.round(config.ADMIN_LOGIN_MAX_AGE_S / 60)} min${bot.development ? `; a fresh one: ${site}/dev/admin` : ''})`);
  }
  if (bot.development) {
    lines.push(
      `  Fresh launch: ${site}/dev/launch   (?user=<id>&start=<refcode> for another player)`,
      `  Bot:          off: no BOT_TOKEN, so init data is signed with a development token kept in ${resolve(config.DATA_DIR, devTokenFile)}`,
    );
  } else lines.push(`  Bot:          @${config.BOT_USERNAME} (${background.botMode}); broadcasts are sent from the queue`);
  if (demo) lines.push(...demoBanner(demo, runConfig));
  if (config.TEST_MODE) lines.push('  TEST_MODE:    the server clock can be moved forward (POST /money/api/test/clock)');
  console.log(lines.join('\n'));
};

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') console.error(`Port ${process.env.PORT ?? 3000} is in use: stop the other server or set PORT.`);
  else console.error('MONEY failed to start:', err);
  process.exit(1);
});
