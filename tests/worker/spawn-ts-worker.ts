import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;

/**
 * Starts a TypeScript file in a worker thread. Node 20 loads a worker's entry before `--import`
 * hooks apply, so a tiny eval'd bootstrap registers tsx first, then imports the entry.
 */
export const spawnTsWorker = (entry: URL): Worker =>
  new Worker(`import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, {
    eval: true,
  });
