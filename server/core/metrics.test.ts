import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { metrics, metricsRegistry, recordJobCheck, recordJobStarted, scrape, trackDatabase, trackPool } from './metrics.ts';

const root = resolve(import.meta.dirname, '../..');
const valueOf = async (m: { get(): Promise<{ values: { value: number; labels: Record<string, unknown>; metricName?: string }[] }> }, labels: Record<string, string> = {}, metricName?: string) =>
  (await m.get()).values.find((v) => (metricName === undefined || v.metricName === metricName) && Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;

describe('the metrics of one process', () => {
  it('reads the waiting clients of every tracked pool at each scrape, and forgets a closed one', async () => {
    const pool = { waitingCount: 3, idleCount: 0, totalCount: 10 };
    const untrack = trackPool('jobs', pool);
    expect(await valueOf(metrics.db.poolWaiting, { pool: 'jobs' })).toBe(3);
    pool.waitingCount = 1;
    expect(await valueOf(metrics.db.poolWaiting, { pool: 'jobs' })).toBe(1);
    untrack();
    expect(await valueOf(metrics.db.poolWaiting, { pool: 'jobs' })).toBe(0);
  });

  it('probes each tracked database at the scrape: 1 when it answers, 0 when it fails or throws', async () => {
    let answers: boolean | 'throws' = true;
    const untrack = trackDatabase('requests', async () => {
      if (answers === 'throws') throw new Error('connection refused');
      return answers;
    });
    expect(await valueOf(metrics.db.up, { pool: 'requests' })).toBe(1);
    answers = false;
    expect(await valueOf(metrics.db.up, { pool: 'requests' })).toBe(0);
    answers = 'throws';
    expect(await valueOf(metrics.db.up, { pool: 'requests' })).toBe(0);
    untrack();
    expect((await metrics.db.up.get()).values).toEqual([]);
  });

  it("keeps a job's last success at its start until a check succeeds, and times only the runs that did work", async () => {
    recordJobStarted('daily-reset', 60_000, 1_000_000);
    expect(await valueOf(metrics.jobs.lastSuccess, { name: 'daily-reset' })).toBe(1_000);
    expect(await valueOf(metrics.jobs.checkInterval, { name: 'daily-reset' })).toBe(60);
    recordJobCheck('daily-reset', 0.5, false, 2_000_000);
    expect(await valueOf(metrics.jobs.lastSuccess, { name: 'daily-reset' })).toBe(2_000);
    expect(await valueOf(metrics.jobs.seconds, { name: 'daily-reset' }, 'money_job_duration_seconds_count')).toBe(0);
    recordJobCheck('daily-reset', 0.5, true, 3_000_000);
    expect(await valueOf(metrics.jobs.seconds, { name: 'daily-reset' }, 'money_job_duration_seconds_count')).toBe(1);
  });

  it('answers the text format, with the series alerts read present at 0 before any event', async () => {
    const { contentType, text } = await scrape();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const reason of ['lagging', 'down', 'promoted']) expect(text).toMatch(new RegExp(`^money_db_replica_fallbacks_total\\{reason="${reason}"\\} 0$`, 'm'));
    expect(text).toMatch(/^# TYPE money_http_request_duration_seconds histogram$/m);
    expect(metricsRegistry.getSingleMetric('process_cpu_user_seconds_total')).toBeUndefined();
  });
});

describe('the counters alerts and rates read, before their first event', () => {
  it("has a pool's waits and time-outs at 0 from its opening, and a job's failures from its start", async () => {
    const untrack = trackPool('at-zero', { waitingCount: 0, idleCount: 0, totalCount: 0 });
    recordJobStarted('at-zero-job', 60_000);
    const { text } = await scrape();
    for (const name of ['money_db_pool_waits_total', 'money_db_pool_timeouts_total', 'money_db_statement_timeouts_total']) expect(text).toMatch(new RegExp(`^${name}\\{pool="at-zero"\\} 0$`, 'm'));
    expect(text).toMatch(/^money_job_failures_total\{name="at-zero-job"\} 0$/m);
    // The first event is then an increase from 0, which rate() and increase() see.
    metrics.db.poolTimeouts.inc({ pool: 'at-zero' });
    metrics.jobs.failures.inc({ name: 'at-zero-job' });
    expect(await valueOf(metrics.db.poolTimeouts, { pool: 'at-zero' })).toBe(1);
    expect(await valueOf(metrics.jobs.failures, { name: 'at-zero-job' })).toBe(1);
    untrack();
  });
});

describe('the metrics of WORKERS=N', () => {
  it("answers a scrape in one worker with every worker's series, summed by the primary", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'tests/fixtures/metrics-cluster.ts'], { cwd: root, timeout: 60_000 });
    const answer = JSON.parse(stdout.trim().split('\n').pop()!) as { scraped?: string; error?: string };
    expect(answer.error).toBeUndefined();
    // Worker 0 accepted 2 taps and worker 1 accepted 3.
    expect(answer.scraped).toMatch(/^money_click_taps_accepted_total 5$/m);
    // Both workers' process metrics are there, merged.
    expect(answer.scraped).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(answer.scraped).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
  });
});
