/**
 * End-to-end harness: the REAL server process (`node --import tsx server/main.ts`, as `npm start`
 * runs it) on a temporary DATA_DIR, on PGlite or, when DATABASE_URL is set, on a fresh PostgreSQL
 * database made for the run; Debian's Chromium driven by playwright-core; and API calls signed
 * with the server's own development token, exactly as the mini-app makes them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import type { TelegramUser } from '../../server/players/init-data.ts';
import { devTokenFile } from '../../server/dev/dev-token.ts';
import { initDataOf, launchUrl } from '../../server/dev/launch-url.ts';
import { testClockPath } from '../../server/dev/dev-routes.ts';
import { chromiumArgs, chromiumPath } from '../../vite.config.ts';

const root = resolve(import.meta.dirname, '../..');

export type DbKind = 'pglite' | 'postgres';

/** The suites run on PGlite always, and again on PostgreSQL when DATABASE_URL is set. */
export const dbKinds: DbKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fresh PostgreSQL database for one run (dropped by `drop`), or nothing on PGlite. */
export const freshDatabase = async (kind: DbKind): Promise<{ url: string | undefined; drop(): Promise<void> }> => {
  const base = process.env.DATABASE_URL;
  if (kind === 'pglite' || !base) return { url: undefined, drop: async () => {} };
  const name = `money_e2e_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
};

export interface RunningServer {
  base: string;
  dataDir: string;
  botToken: string;
  output(): string;
  /** Sends a signal and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  proc: ChildProcess;
}

/** Starts `server/main.ts` on a free port; resolves once it printed that it is running. */
export const startServer = async (opts: { dataDir: string; databaseUrl?: string | undefined; env?: Record<string, string>; nodeArgs?: string[] }): Promise<RunningServer> => {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    TEST_MODE: '1',
    // No SHED_*: the suites run the shedding players meet (docs/faults.md "Overload").
    // Lets a developer reuse a dist/ they built (the server otherwise rebuilds a stale one itself).
    ...(process.env.SKIP_CLIENT_BUILD ? { SKIP_CLIENT_BUILD: process.env.SKIP_CLIENT_BUILD } : {}),
    ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
    ...opts.env,
  };
  // `nodeArgs` after tsx: e.g. the traces' preload (`--import ./server/tracing-preload.ts`), as `npm start` gives it.
  const proc = spawn(process.execPath, ['--import', 'tsx', ...(opts.nodeArgs ?? []), 'server/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => proc.once('exit', (code) => res(code)));
  const port = await new Promise<number>((res, rej) => {
    const onData = () => {
      const m = /MONEY is running on [^\s]+:(\d+)/.exec(out);
      if (m) {
        proc.stdout.off('data', onData);
        res(Number(m[1]));
      }
    };
    proc.stdout.on('data', onData);
    void exited.then((code) => rej(new Error(`server exited (${code}) before it was running:\n${out}`)));
  });
  const botToken = opts.env?.BOT_TOKEN ?? readFileSync(join(opts.dataDir, devTokenFile), 'utf8').trim();
  return {
    base: `http://127.0.0.1:${port}`,
    dataDir: opts.dataDir,
    botToken,
    output: () => out,
    proc,
    stop: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
};

/** A port free on 127.0.0.1 now, for a server that must know its own address (PUBLIC_URL) before it starts. */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export const tempDataDir = (): string => mkdtempSync(join(tmpdir(), 'money-e2e-'));
export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

/** A Telegram user for a test: unique ids per run so PostgreSQL reruns never collide. */
export const testUser = (n: number, extra: Partial<TelegramUser> = {}): TelegramUser => ({
  id: 6_000_000_000 + n,
  first_name: `Player${n}`,
  username: `player_${n}`,
  language_code: 'en',
  ...extra,
});

/** What Telegram would open for this user, on this server, signed with its (development) token. */
export const launchFor = (server: RunningServer, user: TelegramUser, nowMs: number, startParam?: string): string =>
  launchUrl({ publicUrl: server.base, botToken: server.botToken, user, nowMs, ...(startParam ? { startParam } : {}) });

/** Calls the API as `user`, with init data in Authorization as the mini-app sends it. */
export const apiAs = (server: RunningServer, user: TelegramUser, nowMs: number) => {
  const auth = `tma ${initDataOf(launchFor(server, user, nowMs))}`;
  const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${server.base}${apiPrefix}${path}`, {
      method,
      headers: { authorization: auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* text answers stay text */
    }
    return { status: res.status, body: parsed as T };
  };
  return { auth, call, status: async () => (await call<UserStatus>('GET', '')).body };
};

/** Moves the server's clock forward (TEST_MODE only); returns the server's new now. */
export const advanceClock = async (server: RunningServer, ms: number): Promise<number> => {
  const res = await fetch(`${server.base}${testClockPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceMs: ms }) });
  if (!res.ok) throw new Error(`advance clock: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { now: number }).now;
};

/** The server's clock now (moves with real time plus the test offset). */
export const serverNow = async (server: RunningServer): Promise<number> =>
  ((await (await fetch(`${server.base}${testClockPath}`)).json()) as { now: number }).now;

/** Debian's Chromium, headless, with the flags the team uses; no downloaded browser. */
export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });

/** A suite's world: a fresh database, the real server on it, and Chromium. */
export interface Stack {
  server: RunningServer;
  browser: Browser;
  close(): Promise<void>;
}

/** Opens a Stack; `env` (or the function that makes it, e.g. after picking a port) goes to the server. */
export const openStack = async (kind: DbKind, env: Record<string, string> | (() => Promise<Record<string, string>>) = {}): Promise<Stack> => {
  const db = await freshDatabase(kind);
  const dataDir = tempDataDir();
  let server: RunningServer | undefined;
  const close = async () => {
    await server?.stop();
    await db.drop();
    removeDir(dataDir);
  };
  try {
    server = await startServer({ dataDir, databaseUrl: db.url, env: typeof env === 'function' ? await env() : env });
    const browser = await launchBrowser();
    return {
      server,
      browser,
      close: async () => {
        await browser.close();
        await close();
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
};
