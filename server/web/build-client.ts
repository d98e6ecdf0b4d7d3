import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

// What the client build reads; a change in any of them makes dist/ stale.
const clientInputs = ['src', 'engine', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

const newestMtime = (path: string): number => {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) {
    if (name.endsWith('.test.ts') || name.endsWith('.test.tsx')) continue;
    newest = Math.max(newest, newestMtime(join(path, name)));
  }
  return newest;
};

/** Why dist/ needs a build ('missing', 'stale'), or null when it is current. */
export const clientBuildNeeded = (root: string): 'missing' | 'stale' | null => {
  const index = join(root, 'dist', 'index.html');
  if (!existsSync(index)) return 'missing';
  const built = statSync(index).mtimeMs;
  return clientInputs.some((p) => newestMtime(join(root, p)) > built) ? 'stale' : null;
};

const sleepSync = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

// A build older than this holds a lock left by a killed process.
const staleLockMs = 5 * 60_000;

/**
 * Runs `fn` holding a lock directory, so servers starting together (tests, several processes on
 * one machine) never run two builds into the same dist/ (vite empties it first).
 */
const withBuildLock = <T>(root: string, fn: () => T): T => {
  const lock = join(root, 'node_modules', '.money-build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = existsSync(lock) ? Date.now() - statSync(lock).mtimeMs : 0;
      if (age > staleLockMs) rmSync(lock, { recursive: true, force: true });
      else sleepSync(200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
};

/** Runs `vite build` when dist/ is missing or older than the client's sources; throws when the build fails. */
export const ensureClientBuilt = (root: string, log: (line: string) => void = console.log): void => {
  if (clientBuildNeeded(root) === null) return;
  withBuildLock(root, () => build(root, log));
};

const build = (root: string, log: (line: string) => void): void => {
  // Checked again under the lock: another process may have just built it.
  const why = clientBuildNeeded(root);
  if (why === null) return;
  log(`Building the client (dist/ is ${why})…`);
  const started = Date.now();
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status ?? r.signal})`);
  log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
};
