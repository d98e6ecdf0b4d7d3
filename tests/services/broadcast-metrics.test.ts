/**
 * The broadcast series (docs/operations.md): a broadcast to six players through the fake Bot API,
 * which answers every third send 429. The worker counts each send by Telegram's answer, each 429,
 * and samples the queue's depth until it is empty.
 */
import { describe, expect, it } from 'vitest';
import { startBroadcastWorker } from '../../server/bot/broadcast-worker.ts';
import { queueDepth, type BroadcastProgress } from '../../server/bot/broadcast-store.ts';
import { broadcastMetrics } from '../../server/bot/exports.ts';
import { startFakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { backends, botToken, openForSuite, openServicesHarness, waitFor } from './harness.ts';

const apiKey = 'broadcast-key-for-metrics';
const keyHeader = { 'x-api-key': apiKey };

const valueOf = async (m: { get(): Promise<{ values: { value: number; labels: Record<string, unknown> }[] }> }, labels: Record<string, string> = {}) =>
  (await m.get()).values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;

describe.each(backends)('the broadcast metrics (%s)', (backend) => {
  const h = openForSuite(() => openServicesHarness(backend, { BROADCAST_API_KEY: apiKey }));

  it('counts sends by outcome and the 429s, and samples the queue down to 0', async () => {
    await h.db.query(
      `INSERT INTO users (id, refcode, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
       SELECT 9500000000 + i, 'm' || lpad(i::text, 5, '0'), 0, 0, 0, 0 FROM generate_series(0, 5) AS i`,
    );
    const tg = await startFakeTelegram(botToken);
    const before = {
      sent: await valueOf(broadcastMetrics.messages, { outcome: 'sent' }),
      retry: await valueOf(broadcastMetrics.messages, { outcome: 'retry' }),
      limited: await valueOf(broadcastMetrics.telegram429),
    };
    tg.settings.rateLimit = { everyN: 3, retryAfterS: 1 };
    const queued = await h.call('POST', '/public/send-telemss', null, { body: { message: 'counted' }, headers: keyHeader });
    const { broadcastId } = queued.json<{ broadcastId: number }>();
    expect(await queueDepth(h.db)).toBe(6);
    // One lane; a short lease, so the recovery loop (which samples the depth) comes round often.
    const worker = startBroadcastWorker({ db: h.db, clock: { now: () => Date.now() }, token: botToken, apiRoot: tg.apiRoot, ratePerSecond: 1_000, concurrency: 1, leaseMs: 200, idlePollMs: 50, timeoutSeconds: 30 });
    try {
      const remaining = async () => (await h.call('GET', `/public/send-telemss/${broadcastId}`, null, { headers: keyHeader })).json<BroadcastProgress>().remaining;
      await waitFor(async () => (await remaining()) === 0, 'the broadcast to finish');
      await waitFor(async () => (await valueOf(broadcastMetrics.queueDepth)) === 0, 'a sample of the empty queue');
    } finally {
      await worker.stop({ deadlineMs: 1_000 });
      await tg.close();
    }
    expect(tg.delivered).toHaveLength(6);
    expect(tg.rateLimited).toBeGreaterThanOrEqual(1);
    expect((await valueOf(broadcastMetrics.messages, { outcome: 'sent' })) - before.sent).toBe(6);
    expect((await valueOf(broadcastMetrics.messages, { outcome: 'retry' })) - before.retry).toBe(tg.rateLimited);
    expect((await valueOf(broadcastMetrics.telegram429)) - before.limited).toBe(tg.rateLimited);
  });
});
