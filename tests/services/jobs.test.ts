import { describe, expect, it } from 'vitest';
import { money } from '../../engine/rules/money.ts';
import { runDailyReset } from '../../server/background/daily-reset.ts';
import { startBackground } from '../../server/background/runtime.ts';
import { metrics } from '../../server/core/metrics.ts';
import { readStatsCache } from '../../server/leaderboard/stats-cache.ts';
import { backends, openServicesHarness, openForSuite } from './harness.ts';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe.each(backends)('scheduled jobs (%s)', (backend) => {
  const h = openForSuite(() => openServicesHarness(backend, { ENABLE_TEST_CRON: '1', ADS_TOKEN_SECRET: 'ads-secret-for-tests' }));

  it('GET /public/test-cron folds the stats counters: they equal the users table', async () => {
    const a = await h.newPlayer();
    await h.newPlayer();
    // Taps and dollars through the click path, so its write counts them.
    expect((await h.call('POST', '/click', a, { body: { click: 5, batchId: 'cron-1' } })).statusCode).toBe(200);
    const r = await h.call('GET', '/public/test-cron', null);
    expect(r.statusCode).toBe(200);
    const sums = (await h.db.query<{ c: number; n: number; e: string }>('SELECT sum(total_click)::int AS c, count(*)::int AS n, sum(total_earn)::text AS e FROM users')).rows[0]!;
    expect(sums.c).toBeGreaterThan(0);
    expect(r.json().stats).toMatchObject({ totalClick: sums.c, totalPaticipant: sums.n });
    expect(money(r.json().stats.totalEarn).eq(sums.e)).toBe(true);
    const cached = await readStatsCache(h.db);
    expect(cached).toMatchObject({ totalClick: sums.c, totalPaticipant: sums.n, refreshedAtMs: h.clock.now() });
  });

  it("GET /public/test-cron runs exactly the jobs the scheduler starts", async () => {
    // What the scheduler starts, as the jobs' metrics name them (each started job sets its check interval).
    const background = await startBackground({ db: h.db, config: h.config, clock: h.clock, realBot: false, log: () => {} });
    await background.stop();
    const started = (await metrics.jobs.checkInterval.get()).values.map((v) => String(v.labels.name)).sort();
    const r = await h.call('GET', '/public/test-cron', null);
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.json().runs).sort()).toEqual(started);
    expect(started).toEqual(expect.arrayContaining(['console-aggregates', 'daily-puzzles', 'daily-reminders', 'daily-reset', 'ranks', 'stats-reconcile', 'stats-refresh']));
  });

  it('the daily reset clears finished days: the ads count starts again at 0', async () => {
    const u = await h.newPlayer();
    const watch = async () => {
      const token = (await h.call('GET', '/start-watch-ads', u)).body;
      return h.call('POST', '/claim-ads-reward', u, { body: { taskId: 5, encryptData: b64(token) } });
    };
    expect((await watch()).json().numberOfDone).toBe(1);
    expect((await watch()).json().numberOfDone).toBe(2);
    const rows = () => h.db.query('SELECT period FROM task_completions WHERE user_id = $1 AND task_id = 5', [u]);
    expect((await rows()).rows).toHaveLength(1);
    h.clock.advance(24 * 60 * 60 * 1000);
    const r = await h.call('GET', '/public/test-cron', null);
    expect(r.json().dailyReset).toMatchObject({ ran: true });
    expect(r.json().dailyReset.dailyRowsRemoved).toBeGreaterThanOrEqual(1);
    expect((await rows()).rows).toHaveLength(0);
    expect((await watch()).json().numberOfDone).toBe(1);
  });

  it('runs the daily reset once per UTC day across processes', async () => {
    h.clock.advance(24 * 60 * 60 * 1000);
    const [x, y] = await Promise.all([runDailyReset(h.db, h.clock.now()), runDailyReset(h.db, h.clock.now())]);
    expect([x.ran, y.ran].sort()).toEqual([false, true]);
    expect((await runDailyReset(h.db, h.clock.now())).ran).toBe(false);
  });

  it('prunes click batch ids older than the 7-day idempotency window, keeping recent ones', async () => {
    const u = await h.newPlayer();
    const click = (batchId: string) => h.call('POST', '/click', u, { body: { click: 1, batchId, seq: 1 } });
    expect((await click('old-batch')).statusCode).toBe(200);
    h.clock.advance(8 * 24 * 60 * 60 * 1000);
    expect((await click('new-batch')).statusCode).toBe(200);
    const ids = async () => (await h.db.query<{ batch_id: string }>('SELECT batch_id FROM click_batches WHERE user_id = $1', [u])).rows.map((r) => r.batch_id);
    expect((await ids()).sort()).toEqual(['new-batch', 'old-batch']);
    const r = await runDailyReset(h.db, h.clock.now(), { force: true });
    expect(r.clickBatchesRemoved).toBeGreaterThanOrEqual(1);
    expect(await ids()).toEqual(['new-batch']);
  });
});
