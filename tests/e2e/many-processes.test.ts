/**
 * Three identical server processes on one PostgreSQL, no flags (docs/faults.md): each scheduled
 * job runs once per period across them, and a broadcast reaches every user once while the sends of
 * all three together stay at or under 30 in any one second (the fake Bot API's clock).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { removeDir, startServer, tempDataDir, type RunningServer } from './harness.ts';
import { missingBinaries, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';

const missing = missingBinaries();
if (missing.length > 0) console.warn(`many-processes: skipped, missing ${missing.join(', ')}`);
const token = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';
const apiKey = 'broadcast-key-for-tests';
const statsEveryMs = 400;
const recipients = 120;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(missing.length > 0)('three processes, no flags (private PostgreSQL)', () => {
  let db: PrivatePostgres;
  let telegram: FakeTelegram;
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    db = await startPrivatePostgres();
    telegram = await startFakeTelegram(token);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await telegram?.close();
    db?.destroy();
    for (const d of dirs) removeDir(d);
  });

  it('runs each job once per period and keeps the broadcast pace of all three at 30/s', async () => {
    const firstMs = Date.now();
    const env = {
      BOT_TOKEN: token,
      BOT_API_ROOT: telegram.apiRoot,
      // Several processes take updates by webhook (only one may long-poll).
      WEBHOOK_URL: 'https://money.example/money/api/v1/airdrop/public/telegram-webhook',
      BROADCAST_API_KEY: apiKey,
      BROADCAST_IDLE_POLL_MS: '100',
      STATS_REFRESH_MS: String(statsEveryMs),
    };
    for (let i = 0; i < 3; i++) {
      const dataDir = tempDataDir();
      dirs.push(dataDir);
      servers.push(await startServer({ dataDir, databaseUrl: db.url, env }));
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO users (id, refcode, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
         SELECT 9500000000 + i, 'm' || lpad(i::text, 5, '0'), 0, 0, 0, 0 FROM generate_series(0, $1::int - 1) AS i`,
        [recipients],
      );
      const res = await fetch(`${servers[0]!.base}/money/api/v1/airdrop/public/send-telemss`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'three processes' }),
      });
      expect(res.status).toBe(202);
      while (telegram.delivered.length < recipients) await sleep(100);
      // A few more stats periods with all three running.
      await sleep(statsEveryMs * 4);
      for (const s of servers) expect(await s.stop('SIGTERM')).toBe(0);
      const lastMs = Date.now();

      // Every recipient exactly once, sent by more than one process.
      const chats = telegram.delivered.map((d) => Number(d.chat_id));
      expect(new Set(chats).size).toBe(recipients);
      expect(chats).toHaveLength(recipients);
      const workers = await client.query<{ n: number }>('SELECT count(DISTINCT claimed_by)::int AS n FROM broadcast_recipients');
      expect(workers.rows[0]!.n).toBeGreaterThan(1);
      // At most 30 sends in any one second, all processes together.
      const times = telegram.delivered.map((d) => d.at).sort((a, b) => a - b);
      const busiest = Math.max(...times.map((t, i) => times.slice(i).filter((x) => x < t + 1_000).length));
      expect(busiest).toBeLessThanOrEqual(30);
      const spanS = (times.at(-1)! - times[0]!) / 1000;
      console.info(`many-processes: ${recipients} sends in ${spanS.toFixed(2)} s (${(recipients / spanS).toFixed(1)}/s), busiest second ${busiest}`);

      // Each job once per period: never more runs than periods, whatever three processes tried.
      const jobs = new Map(
        (await client.query<{ job: string; runs: number }>('SELECT job, runs FROM job_schedule')).rows.map((r) => [r.job, Number(r.runs)]),
      );
      expect(jobs.get('daily-reset')).toBe(1);
      const periods = Math.floor(lastMs / statsEveryMs) - Math.floor(firstMs / statsEveryMs) + 1;
      expect(jobs.get('stats-refresh')).toBeGreaterThanOrEqual(2);
      expect(jobs.get('stats-refresh')).toBeLessThanOrEqual(periods);
    } finally {
      await client.end();
    }
  }, 240_000);
});
