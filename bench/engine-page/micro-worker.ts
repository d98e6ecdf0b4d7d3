// Runs the engine micro-benchmarks inside a dedicated worker, where the engine lives in the app.
import { runMicro } from '../engine-micro.ts';

const workerHasRaf = typeof (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame === 'function';
void runMicro(() => performance.now()).then((micro) => postMessage({ ...micro, workerHasRaf }));
