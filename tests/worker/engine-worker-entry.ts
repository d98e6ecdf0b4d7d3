// A Node worker_threads entry for the engine worker: the browser worker exposes itself on its
// global scope; here comlink's node adapter wraps the parent port instead.
import { parentPort } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { exposeEngine } from '../../engine/client/worker.ts';

exposeEngine(nodeEndpoint(parentPort!));
