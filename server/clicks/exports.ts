/** What the clicks feature offers the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { pruneClickBatches } from './click-batcher.ts';
