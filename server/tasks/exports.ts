/** What the tasks feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { isChannelMember } from './outside-services.ts';
export type { TaskRow } from './task-model.ts';
export { claimWithToken, loadAdsTask, rewardFromCallback, startAdWatch } from './ads-rewards.ts';
export type { AdsReward } from './ads-rewards.ts';
export { decodeEncryptData, readAdsToken } from './ads-token.ts';
export { channelBoostsOf, claimTask, recordChannelBoosts, verifyOutside } from './task-claims.ts';
export type { OutsideServices } from './task-evidence.ts';
export { listTasks, loadTask, taskTypeValues } from './tasks.ts';
export { pruneTaskHistory } from './prune.ts';
export { boostChannelId, tasksSettings, turnstileHostnames } from './settings.ts';
