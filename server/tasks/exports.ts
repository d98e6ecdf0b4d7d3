/** What the tasks feature offers the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { isChannelMember } from './outside-services.ts';
export type { TaskRow } from './task-model.ts';
