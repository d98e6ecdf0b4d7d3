/**
 * A real Prometheus scrapes the real app (docs/operations.md): createApp listening on 127.0.0.1
 * with METRICS_TOKEN set and the scheduled jobs running, Debian's prometheus scraping /metrics
 * every second with the bearer token. The test taps and fetches an airdrop claim proof over HTTP,
 * then runs every query of ops/grafana-dashboard.json through Prometheus's /api/v1/query and checks
 * what the traffic implies. The queries come from the dashboard, so the two cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix, type ClickResult } from '../../engine/wire/api-types.ts';
import { scheduledJobs } from '../../server/background/jobs.ts';
import { startJobs, type JobsHandle } from '../../server/core/jobs/scheduler.ts';
import { signedLink, testWallet } from '../fixtures/ton-wallets.ts';
import { setBalances } from '../server/db-helpers.ts';
import type { Harness } from '../server/harness.ts';
import { domain, openWalletHarness } from '../server/wallet-harness.ts';
import { prometheusPath, skipWithout } from './prometheus-binaries.ts';
import { startPrometheus, type RunningPrometheus, type Sample } from './prometheus-runner.ts';

const token = 'scrape-test-token-0123456789abcdef';
const clickRoute = `${apiPrefix}/click`;

interface Panel {
  title: string;
  type: string;
  targets?: { refId: string; expr: string }[];
}
const dashboard = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../ops/grafana-dashboard.json'), 'utf8')) as { panels: Panel[] };
const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, refId: t.refId, expr: t.expr })));
// Grafana's own variables, with a window that holds the whole test.
const forPrometheus = (expr: string) => expr.replaceAll('$__rate_interval', '5m');

describe.skipIf(skipWithout('prometheus scrape', prometheusPath))('a real Prometheus scraping the server', () => {
  let h: Harness;
  let app: FastifyInstance;
  let jobs: JobsHandle;
  let prometheus: RunningPrometheus;
  let base: string;

  beforeAll(async () => {
    h = await openWalletHarness('pglite', { METRICS_TOKEN: token });
    app = h.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('not listening');
    base = `http://127.0.0.1:${address.port}`;
    jobs = startJobs({ db: h.db, clock: h.clock, jobs: scheduledJobs({ statsRefreshMs: 60_000 }), log: () => {} });
    prometheus = await startPrometheus({ target: `127.0.0.1:${address.port}`, token });
  }, 60_000);

  afterAll(async () => {
    await prometheus?.stop();
    await jobs?.stop();
    await h?.close();
  });

  const api = async (method: string, path: string, user: number | null, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${apiPrefix}${path}`, {
      method,
      headers: { ...(user === null ? {} : { authorization: `tma ${h.initData(user)}` }), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('scrapes with the token, and the dashboard shows the taps, the click requests and the proof the test made', async () => {
    expect(await prometheus.queryUntil('up{job="money"}', (s) => s[0]?.value === 1), prometheus.output()).toMatchObject([{ value: 1 }]);

    // Taps: several batches, the last far past the energy, so some are clipped; one replayed batch.
    // A series is born at its first request: Prometheus scrapes it once before the rest, so that
    // rates see every request after the first (a rate never sees a series' birth).
    const answered = `sum(money_http_request_duration_seconds_count{method="POST", route="${clickRoute}"})`;
    const player = await h.newPlayer();
    const sent = [30, 40, 50, 100_000];
    let accepted = 0;
    for (const [i, click] of sent.entries()) {
      const r = await api('POST', '/click', player, { click, batchId: `scrape-${i}`, seq: i + 1 });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      accepted += (r.body as ClickResult).accepted;
      if (i === 0) await prometheus.queryUntil(answered, (s) => s[0]?.value === 1);
    }
    const replay = await api('POST', '/click', player, { click: 30, batchId: 'scrape-0', seq: 1 });
    expect(replay.status).toBe(200);
    const requested = sent.reduce((a, b) => a + b, 0);
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(requested);
    const clickRequests = sent.length + 1;

    // An airdrop claim: a linked wallet with MONEY, the operator's snapshot, then the TEP-176 proof.
    const holder = await h.newPlayer();
    await setBalances(h.db, holder, { totalMoney: '125.5' });
    const wallet = testWallet();
    const payload = ((await api('POST', '/wallet/ton-proof-payload', holder)).body as { payload: string }).payload;
    const link = await api('POST', '/wallet/link', holder, signedLink(wallet, { payload, domain, timestampS: Math.floor(h.clock.now() / 1000) }));
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const snapshot = await api('POST', '/public/airdrop/snapshot', null, { round: 1, startFrom: 1_768_000_000, expireAt: 1_800_000_000 }, { 'x-api-key': 'operator-key' });
    expect(snapshot.status, JSON.stringify(snapshot.body)).toBe(201);
    // Two claims of the proof, a scrape between them. The round's dictionary is loaded once per
    // process: an answer may be 503 "loading" (then the 5xx ratio is not 0).
    let loading = 0;
    const claimProof = async () => {
      let proof = await api('GET', `/jetton/wallet/${wallet.address.toRawString()}`, null);
      for (let i = 0; proof.status === 503 && i < 50; i++) {
        loading++;
        await new Promise((r) => setTimeout(r, 100));
        proof = await api('GET', `/jetton/wallet/${wallet.address.toRawString()}`, null);
      }
      expect(proof.status, JSON.stringify(proof.body)).toBe(200);
    };
    const served = 'sum(money_airdrop_proofs_served_total)';
    await claimProof();
    await prometheus.queryUntil(served, (s) => s[0]?.value === 1);
    await claimProof();

    // Wait (bounded) for a scrape that saw all of it, then read every dashboard query.
    expect(await prometheus.queryUntil(answered, (s) => s[0]?.value === clickRequests)).toMatchObject([{ value: clickRequests }]);
    expect(await prometheus.queryUntil(served, (s) => s[0]?.value === 2)).toMatchObject([{ value: 2 }]);

    const results = new Map<string, Sample[]>();
    for (const q of queries) results.set(`${q.panel}/${q.refId}`, await prometheus.query(forPrometheus(q.expr)));
    const one = (key: string) => {
      const samples = results.get(key);
      expect(samples, `${key} is a query of the dashboard`).toBeDefined();
      expect(samples, key).toHaveLength(1);
      return samples![0]!.value;
    };
    const byLabel = (key: string, label: string) => new Map((results.get(key) ?? []).map((s) => [s.metric[label], s.value]));

    // Since the process started: exactly what the test did.
    expect(one('Taps requested/A')).toBe(requested);
    expect(one('Taps accepted/A')).toBe(accepted);
    expect(one('Taps clipped/A')).toBe(requested - accepted);
    expect(one('POST /click answers/A')).toBe(clickRequests);
    expect(one('Airdrop proofs served/A')).toBe(2);
    expect(one('Database up (lowest over processes)/A')).toBe(1);

    // Rates over the window: the traffic shows, and nothing failed.
    expect(byLabel('Requests per second by route/A', 'route').get(clickRoute)).toBeGreaterThan(0);
    expect(byLabel('Requests per second by route/A', 'route').get(`${apiPrefix}/jetton/wallet/:address`)).toBeGreaterThan(0);
    // No route label carries an id: the player ids and the wallet address are nowhere.
    for (const route of byLabel('Requests per second by route/A', 'route').keys()) expect(route).not.toMatch(/\d{6,}|0:[0-9a-f]{64}/);
    if (loading === 0) expect(one('5xx ratio (player routes)/A')).toBe(0);
    else expect(one('5xx ratio (player routes)/A')).toBeGreaterThan(0);
    expect(one('Answers 503 for the database per second/A')).toBe(0);
    expect(one('Taps per second/A')).toBeGreaterThan(0);
    expect(one('Taps per second/B')).toBeGreaterThan(0);
    expect(one('Taps per second/C')).toBeGreaterThan(0);
    const p99 = one('POST /click p99/A');
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThanOrEqual(10);
    expect(one('Click group size (mean)/A')).toBeGreaterThanOrEqual(1);
    expect(one('Click group commit p99/A')).toBeGreaterThan(0);
    expect(one('Claim proofs per second/A')).toBeGreaterThan(0);
    expect(one('Claim proof p99/A')).toBeGreaterThan(0);
    // The zero-started series: every outcome and reason is there at 0.
    expect([...byLabel('Broadcast sends per second by outcome/A', 'outcome')].sort()).toEqual([
      ['failed', 0],
      ['retry', 0],
      ['sent', 0],
      ['uncertain', 0],
    ]);
    expect([...byLabel('Rank fall-backs to PostgreSQL per second/A', 'reason').values()]).toEqual([0, 0, 0, 0]);
    // Nothing was shed: every bound of the gate is there, at 0.
    expect([...byLabel('Requests shed per second by reason/A', 'reason')].sort()).toEqual(
      ['eventLoopDelay', 'eventLoopUtilization', 'heapUsedBytes', 'inFlight', 'queueDelay'].map((reason) => [reason, 0]),
    );
    expect([...byLabel('Replica fall-backs to the primary per second/A', 'reason')].sort()).toEqual([
      ['down', 0],
      ['lagging', 0],
      ['promoted', 0],
    ]);
    // The scheduled jobs checked in: seconds since each one's last success, small.
    const sinceSuccess = byLabel("Seconds since each job's last success/A", 'name');
    expect([...sinceSuccess.keys()].sort()).toEqual(['daily-reset', 'stats-reconcile', 'stats-refresh']);
    for (const s of sinceSuccess.values()) expect(s).toBeLessThan(60);
    // Process metrics.
    expect(one('Resident memory/A')).toBeGreaterThan(0);
    expect(one('Event-loop lag p99/A')).toBeGreaterThanOrEqual(0);
    expect(one('CPU (cores)/A')).toBeGreaterThan(0);

    // Every query ran (Prometheus refused none); those not checked above are the ones this traffic
    // cannot move on PGlite (pool series, Redis, broadcasts' queue and 429s, job p99 and failures).
    const unchecked = queries.map((q) => `${q.panel}/${q.refId}`).filter((k) => !checked.has(k));
    expect(unchecked.sort()).toEqual(
      [
        'Pool waits and time-outs per second/A',
        'Pool waits and time-outs per second/B',
        'Pool waits and time-outs per second/C',
        'Callers waiting for a connection/A',
        // No replica and no Patroni behind this PGlite server (tests/e2e/ha/ runs them).
        'Social reads on the replica (lowest over processes)/A',
        'Replica lag at the last check/A',
        'Patroni leaders/A',
        'Patroni synchronous standbys/A',
        'Patroni members by role/A',
        'Patroni members by role/B',
        'Patroni members by role/C',
        'Replica WAL behind the leader/A',
        'Broadcast queue depth/A',
        'Telegram 429s per second/A',
        // The ranks job does not run beside this server (tests/server/rank-catch-up.test.ts reads both series).
        'Rank marks waiting/A',
        'Ranks lag/A',
        'Job run p99/A',
        'Job failures per second/A',
      ].sort(),
    );
  }, 120_000);
});

/** The dashboard queries the test above checks by value. */
const checked = new Set([
  'Taps requested/A',
  'Taps accepted/A',
  'Taps clipped/A',
  'POST /click answers/A',
  'Airdrop proofs served/A',
  'Database up (lowest over processes)/A',
  'Requests per second by route/A',
  '5xx ratio (player routes)/A',
  'Answers 503 for the database per second/A',
  'Taps per second/A',
  'Taps per second/B',
  'Taps per second/C',
  'POST /click p99/A',
  'Click group size (mean)/A',
  'Click group commit p99/A',
  'Claim proofs per second/A',
  'Claim proof p99/A',
  'Broadcast sends per second by outcome/A',
  'Rank fall-backs to PostgreSQL per second/A',
  'Requests shed per second by reason/A',
  'Replica fall-backs to the primary per second/A',
  "Seconds since each job's last success/A",
  'Resident memory/A',
  'Event-loop lag p99/A',
  'CPU (cores)/A',
]);
