/**
 * `npm start`: reads the env once, builds the client when dist/ is stale, opens the database
 * (migrations applied), serves the site, the mini-app and the API on one port, runs the bot when
 * BOT_TOKEN is set, prints where to go, and shuts down cleanly on SIGTERM/SIGINT.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createApp } from './app.ts';
import { systemClock, type Clock } from './clock.ts';
import { loadConfig, type Config } from './config.ts';
import { openDb, type Db } from './db/db.ts';
import { offsetClock, registerDevLaunch, registerTestClock } from './dev/dev-routes.ts';
import { devTokenFile, resolveBotToken } from './dev/dev-token.ts';
import { launchUrl } from './dev/launch-url.ts';
import { ensureClientBuilt } from './web/build-client.ts';
import { publicConfigOf } from './web/public-config.ts';
import { registerWeb } from './web/web-plugin.ts';
import { startOutsideBackground, stopBot } from './bot/runtime.ts';
import { createOutsideServices } from './services/outside-services.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// A stuck close (a hung request, an unreachable database) must not keep a stopping process alive forever.
const shutdownDeadlineMs = 15_000;

const readConfig = (): Config => {
  try {
    return loadConfig(process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
};

const main = async (): Promise<void> => {
  const config = readConfig();
  if (!config.SKIP_CLIENT_BUILD) ensureClientBuilt(root);

  const bot = resolveBotToken(config.BOT_TOKEN, config.DATA_DIR);
  const testClock = config.TEST_MODE ? offsetClock() : undefined;
  const clock: Clock = testClock ?? systemClock;
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');

  // Init data is checked with the development token when there is no BOT_TOKEN; no bot runs on it.
  const runConfig: Config = { ...config, BOT_TOKEN: bot.token };
  const db: Db = await openDb(config);
  let app: FastifyInstance;
  try {
    const services = createOutsideServices({ db, config: runConfig, clock });
    app = await createApp({ db, config: runConfig, clock, services, logger: config.NODE_ENV === 'production' ? { level: 'info' } : { level: 'warn' } });
    // The assets' compressed forms are made in the background: a request that needs one before it
    // is ready waits for that one only, and the start does not wait for them all.
    registerWeb(app, { distDir: resolve(root, 'dist'), publicConfig: publicConfigOf(config), https: publicUrl.startsWith('https://') }).catch(
      (err: unknown) => console.error('Compressing the client assets failed:', err),
    );
    // For the proxy and the process manager: up, and the database answers (503 while closing).
    app.get('/healthz', async () => {
      await db.query('SELECT 1');
      return { ok: true };
    });
    if (bot.development) registerDevLaunch(app, { botToken: bot.token, clock });
    if (testClock !== undefined) registerTestClock(app, testClock);
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }

  // The bot, the broadcast worker (it resumes a queued broadcast) and the scheduled jobs.
  const background = await startOutsideBackground({ db, config: runConfig, clock, realBot: !bot.development });

  let stopping: Promise<void> | undefined;
  const shutdown = (signal: string): Promise<void> =>
    (stopping ??= (async () => {
      console.log(`${signal}: finishing requests in flight and shutting down…`);
      const force = setTimeout(() => {
        console.error(`Shutdown took longer than ${shutdownDeadlineMs / 1000} s; exiting anyway.`);
        process.exit(1);
      }, shutdownDeadlineMs);
      force.unref();
      // Stop taking new work first (updates, broadcasts), then requests; Fastify's close waits for
      // requests in flight and runs the API's onClose hooks (grouped writes are flushed there).
      const steps: string[] = [];
      const step = async (name: string, run: () => Promise<unknown>) => {
        const t = Date.now();
        await run();
        steps.push(`${name} ${Date.now() - t} ms`);
      };
      await step('background', stopBot);
      // Fastify closes the connections idle at the moment close starts; a keep-alive connection
      // whose request finishes later would hold the close until its keep-alive timeout (72 s).
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      await step('requests', () => app.close()).finally(() => clearInterval(sweep));
      await step('database', () => db.close());
      clearTimeout(force);
      console.log(`Stopped (${steps.join(', ')}).`);
    })());
  // `on`, not `once`: a process manager and npm may both deliver the signal (systemd signals the
  // whole group, npm forwards it), and a second one must not kill a shutdown half-way.
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.on(signal, () => {
      shutdown(signal).then(
        () => process.exit(0),
        (err: unknown) => {
          console.error('Shutdown failed:', err);
          process.exit(1);
        },
      );
    });

  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : config.PORT;
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
  }
  if (bot.development) {
    lines.push(
      `  Fresh launch: ${site}/dev/launch   (?user=<id>&start=<refcode> for another player)`,
      `  Bot:          off: no BOT_TOKEN, so init data is signed with a development token kept in ${resolve(config.DATA_DIR, devTokenFile)}`,
    );
  } else lines.push(`  Bot:          @${config.BOT_USERNAME} (${background.botMode}); broadcasts are sent from the queue`);
  if (config.TEST_MODE) lines.push('  TEST_MODE:    the server clock can be moved forward (POST /money/api/test/clock)');
  console.log(lines.join('\n'));
};

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') console.error(`Port ${process.env.PORT ?? 3000} is in use: stop the other server or set PORT.`);
  else console.error('MONEY failed to start:', err);
  process.exit(1);
});
