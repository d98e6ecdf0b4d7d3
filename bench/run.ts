/**
 * `npm run bench`: runs every bench/*.bench.ts in turn, each in its own Node process (so one
 * benchmark's heap, workers and servers never skew the next), and exits non-zero if any failed.
 * `npm run bench -- engine` runs only the files whose name contains "engine".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

const failed: string[] = [];
for (const file of files) {
  console.log(`\n=== bench/${file} ===`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`], { cwd: fileURLToPath(new URL('../', import.meta.url)), stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1_000).toFixed(1);
  if (run.status === 0) console.log(`=== bench/${file}: ok in ${seconds} s ===`);
  else {
    failed.push(file);
    console.error(`=== bench/${file}: FAILED (exit ${run.status ?? run.signal}) after ${seconds} s ===`);
  }
}

if (files.length === 0) console.error('no bench/*.bench.ts matched');
if (failed.length > 0) console.error(`\nfailed: ${failed.join(', ')}`);
process.exit(failed.length > 0 || files.length === 0 ? 1 : 0);
