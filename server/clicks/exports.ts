/** What the clicks feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { clickMetrics } from './metrics.ts';
export { pruneClickBatches } from './click-batcher.ts';
export { createClicks } from './clicks.ts';
export type { ClickBatch, Clicks } from './clicks.ts';
