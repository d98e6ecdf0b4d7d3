/**
 * The broadcasts' series (docs/operations.md "Metrics"), in the core registry
 * (server/core/metrics.ts): the queue the broadcast worker samples and Telegram's answers to its sends.
 */
import { counter, counterBy, gauge } from '../core/metrics.ts';

export const broadcastMetrics = {
  queueDepth: gauge({
    name: 'money_broadcast_queue_depth',
    help: 'Broadcast recipients pending or being sent, sampled by the broadcast worker (the same queue in every worker: max).',
    aggregator: 'max',
  }),
  messages: counterBy('outcome', 'money_broadcast_messages_total', "Broadcast sends by Telegram's answer: sent, failed (not delivered), retry (certainly not delivered, queued again), uncertain (maybe delivered, never re-sent)."),
  telegram429: counter('money_broadcast_telegram_429_total', 'Telegram answers 429 Too Many Requests to a broadcast send (every lane pauses for retry_after).'),
} as const;

/** The outcomes of money_broadcast_messages_total (the broadcast queue's own SendOutcome kinds). */
export type BroadcastOutcome = 'sent' | 'failed' | 'retry' | 'uncertain';

// An alert reads the sends' rate: each outcome is a series at 0 from the start, so its first event is an increase.
for (const outcome of ['sent', 'failed', 'retry', 'uncertain'] satisfies BroadcastOutcome[]) broadcastMetrics.messages.inc({ outcome }, 0);
