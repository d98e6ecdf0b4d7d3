import { describe, expect, it } from 'vitest';
import { clickMetrics, recordClickGroup } from './metrics.ts';

const valueOf = async (m: { get(): Promise<{ values: { value: number; metricName?: string }[] }> }, metricName?: string) =>
  (await m.get()).values.find((v) => metricName === undefined || v.metricName === metricName)?.value ?? 0;

describe('the click series', () => {
  it('counts a click group: requested and accepted taps of new batches, the clipped rest, replays apart', async () => {
    const before = {
      requested: await valueOf(clickMetrics.tapsRequested),
      accepted: await valueOf(clickMetrics.tapsAccepted),
      clipped: await valueOf(clickMetrics.tapsClipped),
      replays: await valueOf(clickMetrics.replays),
      groups: await valueOf(clickMetrics.groupSize, 'money_click_group_size_count'),
    };
    recordClickGroup(
      [{ click: 10 }, { click: 7 }, { click: 10 }],
      [
        { accepted: 10, replay: false },
        { accepted: 4, replay: false },
        { accepted: 10, replay: true },
      ],
      0.004,
    );
    expect(await valueOf(clickMetrics.tapsRequested)).toBe(before.requested + 17);
    expect(await valueOf(clickMetrics.tapsAccepted)).toBe(before.accepted + 14);
    expect(await valueOf(clickMetrics.tapsClipped)).toBe(before.clipped + 3);
    expect(await valueOf(clickMetrics.replays)).toBe(before.replays + 1);
    expect(await valueOf(clickMetrics.groupSize, 'money_click_group_size_count')).toBe(before.groups + 1);
    expect(await valueOf(clickMetrics.groupSize, 'money_click_group_size_sum')).toBeGreaterThanOrEqual(3);
  });
});
