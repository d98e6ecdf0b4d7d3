/** What the bot feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { broadcastMetrics } from './metrics.ts';
export { allowedUpdates, createBot } from './bot.ts';
export type { BotPayments } from './bot.ts';
export type { Broadcast, InlineButton } from './broadcast-payload.ts';
export { startBroadcastWorker } from './broadcast-worker.ts';
export { appendRecipients, createDirectBroadcast, deliveryStates } from './direct-messages.ts';
export type { DeliveryState } from './direct-messages.ts';
export type { BroadcastWorker } from './broadcast-worker.ts';
export { parseBroadcast } from './broadcast-payload.ts';
export { broadcastProgress, enqueueBroadcast } from './broadcast-store.ts';
export type { BroadcastProgress } from './broadcast-store.ts';
export { botSettings, miniAppUrl, webhookSecret } from './settings.ts';
