import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

/** Runs `vite build` when dist/ is missing or older than the client's sources; throws when the build fails. */
export const ensureClientBuilt = (root: string, log: (line: string) => void = console.log): void => {
  const why = clientBuildNeeded(root);
  if (why === null) return;
  log(`Building the client (dist/ is ${why})…`);
  const started = Date.now();
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`vite build failed (exit ${r.status ?? r.signal})`);
  log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
};
