/**
 * The click path's series (docs/operations.md "Metrics"), in the core registry
 * (server/core/metrics.ts): the taps of each click group and the group's size, time and failures.
 */
import { counter, histogram, latencyBuckets } from '../core/metrics.ts';

export const clickMetrics = {
  tapsRequested: counter('money_click_taps_requested_total', 'Taps sent in new click batches (replays not counted).'),
  tapsAccepted: counter('money_click_taps_accepted_total', 'Taps credited: within energy and the human-rate allowance (§9).'),
  tapsClipped: counter('money_click_taps_clipped_total', 'Taps refused by the energy or the human-rate allowance: requested minus accepted.'),
  replays: counter('money_click_batch_replays_total', 'Click batches sent again with a batchId already stored: answered with the first count, nothing credited.'),
  groupSize: histogram({
    name: 'money_click_group_size',
    help: 'Click batches applied together in one group (docs/storage.md "Click groups").',
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1_000],
  }),
  groupCommitSeconds: histogram({
    name: 'money_click_group_commit_seconds',
    help: "A click group's time from its start to its answers, its write committed.",
    buckets: latencyBuckets,
  }),
  groupFailures: counter('money_click_group_failures_total', 'Click groups whose write failed: every batch in it was answered with the error.'),
} as const;

/** One click group's answers: taps requested, accepted and clipped, replays, the group's size and time. */
export function recordClickGroup(group: readonly { click: number }[], answers: readonly { accepted: number; replay: boolean }[], seconds: number): void {
  let requested = 0;
  let accepted = 0;
  let replays = 0;
  for (let i = 0; i < group.length; i++) {
    const a = answers[i]!;
    if (a.replay) replays++;
    else {
      requested += group[i]!.click;
      accepted += a.accepted;
    }
  }
  clickMetrics.tapsRequested.inc(requested);
  clickMetrics.tapsAccepted.inc(accepted);
  clickMetrics.tapsClipped.inc(requested - accepted);
  if (replays > 0) clickMetrics.replays.inc(replays);
  clickMetrics.groupSize.observe(group.length);
  clickMetrics.groupCommitSeconds.observe(seconds);
}
