/**
 * Every feature declares its metric series in its own metrics.ts, in the core registry
 * (docs/operations.md "Metrics"); the app names them all (`featureSeries`), so a fresh app's
 * GET /metrics lists every one before any request has loaded its feature's code, and the counters
 * an alert reads are there at 0 for each label.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, featureSeries } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/background/settings.ts';
import type { Db } from '../../server/core/db/db.ts';
import { metrics } from '../../server/core/metrics.ts';
import { openTestDb, startMs, testEnv } from './harness.ts';

const token = 'series-test-token-0123456789abcdef';

describe('the metric series of a fresh app', () => {
  let db: Db;
  let app: FastifyInstance;
  let text: string;
  beforeAll(async () => {
    const config = loadConfig(testEnv('pglite', { METRICS_TOKEN: token }));
    db = await openTestDb(config, 'pglite');
    app = await createApp({ db, config, clock: manualClock(startMs) });
    const r = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(r.statusCode).toBe(200);
    text = r.body;
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const namesOf = async (group: Record<string, { get(): Promise<{ name: string }> }>) => Promise.all(Object.values(group).map(async (m) => (await m.get()).name));

  it("lists core's series and every feature's, each with its help and type", async () => {
    const groups = [metrics.http, metrics.db, metrics.jobs, ...Object.values(featureSeries)];
    const names = (await Promise.all(groups.map(namesOf))).flat();
    expect(names.length).toBeGreaterThanOrEqual(30);
    for (const name of names) {
      expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
      expect(text).toMatch(new RegExp(`^# TYPE ${name} (counter|gauge|histogram)$`, 'm'));
    }
  });

  it('has the counters alerts read at 0 for every label before their first event', () => {
    for (const outcome of ['sent', 'failed', 'retry', 'uncertain']) expect(text).toMatch(new RegExp(`^money_broadcast_messages_total\\{outcome="${outcome}"\\} 0$`, 'm'));
    for (const reason of ['unavailable', 'error', 'unpublished', 'unknown_player']) expect(text).toMatch(new RegExp(`^money_redis_rank_fallbacks_total\\{reason="${reason}"\\} 0$`, 'm'));
  });
});
