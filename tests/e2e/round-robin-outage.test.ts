/**
 * Protection that never hurts, with the defaults players meet (docs/faults.md "Overload" and "When
 * the database is away"): two server processes on one private PostgreSQL, each started fresh with
 * the default SHED_* settings, take players' taps in round robin beside a busy neighbour (a process
 * spinning on the CPU). Outside the outage no answer is a 503; while the database is stopped the
 * answers are 503 `databaseAway` (or `outcomeUnknown` for a commit cut off); once it is back, a process that has answered a 200 answers no
 * error again. Every acknowledged tap is counted once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClickResult } from '../../engine/wire/api-types.ts';
import { startCpuHogs, type CpuHogs } from '../cpu-hogs.ts';
import { apiAs, removeDir, serverNow, startServer, tempDataDir, testUser, type RunningServer } from './harness.ts';
import { missingBinaries, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';

const missing = missingBinaries();
if (missing.length > 0) console.warn(`round-robin-outage: skipped, missing ${missing.join(', ')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// One bot for both processes, as behind a load balancer: init data signed for it is valid on either.
const token = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';

interface Answer {
  server: number;
  status: number;
  code: string | undefined;
  sentAtMs: number;
  atMs: number;
}

describe.skipIf(missing.length > 0)('two processes in round robin, default shedding, a busy neighbour (private PostgreSQL)', () => {
  let pg: PrivatePostgres;
  let hogs: CpuHogs;
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    pg = await startPrivatePostgres();
    hogs = startCpuHogs(1);
  });
  afterAll(async () => {
    await hogs?.stop();
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    pg?.destroy();
    for (const d of dirs) removeDir(d);
  });

  it('answers no 503 outside the outage, 503 databaseAway during it, no error after a process has recovered, and counts every acknowledged tap once', async () => {
    for (let i = 0; i < 2; i++) {
      const dataDir = tempDataDir();
      dirs.push(dataDir);
      // No SHED_* in the environment: the defaults, from a fresh start.
      servers.push(await startServer({ dataDir, databaseUrl: pg.url, env: { BOT_TOKEN: token } }));
    }
    const users = [1, 2, 3, 4, 5, 6].map((n) => testUser(900 + n));
    // Init data signed at the first process's time, which both accept.
    const at = await serverNow(servers[0]!);
    for (const u of users) expect((await apiAs(servers[0]!, u, at).call('GET', '')).status).toBe(200);

    const answers: Answer[] = [];
    const acknowledged = new Map<string, number>();
    const failures: string[] = [];
    let turn = 0;
    let stop = false;
    const tapper = async (user: (typeof users)[number]) => {
      const auth = apiAs(servers[0]!, user, at).auth;
      for (let seq = 1; !stop; seq++) {
        const batchId = `rr-${user.id}-${seq}`;
        // Resent with the same id until acknowledged, as the mini-app's outbox does.
        for (;;) {
          const server = turn++ % 2;
          const sentAtMs = Date.now();
          const res = await fetch(`${servers[server]!.base}/money/api/v1/airdrop/click`, {
            method: 'POST',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify({ click: 1, batchId, seq }),
            signal: AbortSignal.timeout(15_000),
          }).catch((err: unknown) => err as Error);
          if (res instanceof Error) {
            failures.push(`${batchId}: ${res.message}`);
            await sleep(200);
            continue;
          }
          const body = (await res.json()) as ClickResult | { code?: string };
          answers.push({ server, status: res.status, code: (body as { code?: string }).code, sentAtMs, atMs: Date.now() });
          if (res.status === 200) {
            acknowledged.set(batchId, (body as ClickResult).accepted);
            break;
          }
          await sleep(100);
        }
        await sleep(30);
      }
    };
    const acksAfter = async (n: number) => {
      const target = acknowledged.size + n;
      while (acknowledged.size < target) await sleep(20);
    };
    const tappers = users.map(tapper);

    await acksAfter(60);
    const stoppedAt = Date.now();
    pg.stop();
    await sleep(5_000);
    pg.start();
    const backAt = Date.now();
    await acksAfter(60);
    stop = true;
    await Promise.all(tappers);

    expect(failures).toEqual([]);
    for (const s of servers) expect(s.proc.exitCode, s.output()).toBeNull();
    // Outside the outage: no 503, and nothing else but 200.
    const outside = answers.filter((a) => a.atMs < stoppedAt && a.status !== 200);
    expect(outside).toEqual([]);
    // From the stop on, every error is a 503 of the database away.
    const errors = answers.filter((a) => a.atMs >= stoppedAt && a.status !== 200);
    const during = errors.filter((a) => a.atMs < backAt);
    expect(during.length).toBeGreaterThan(0);
    // (A click whose commit may have happened says so: outcomeUnknown, resent with its batchId.)
    expect(errors.filter((a) => a.status !== 503 || (a.code !== 'databaseAway' && a.code !== 'outcomeUnknown'))).toEqual([]);
    // After the return: a request sent once its process has answered a 200 is answered 200.
    for (const server of [0, 1]) {
      const firstOkAt = Math.min(...answers.filter((a) => a.server === server && a.atMs >= backAt && a.status === 200).map((a) => a.atMs));
      expect(firstOkAt).toBeLessThan(Infinity);
      expect(answers.filter((a) => a.server === server && a.sentAtMs > firstOkAt && a.status !== 200)).toEqual([]);
    }
    // A figure for docs/faults.md, not an assertion: how long errors went on after the return.
    const lastError = Math.max(backAt, ...answers.filter((a) => a.atMs >= backAt && a.status !== 200).map((a) => a.atMs));
    console.info(`round-robin-outage: ${answers.length} answers; the last error ${lastError - backAt} ms after the database was back; ${during.length} 503s during the 5 s stop`);

    // Every acknowledged tap is in the database once; nothing else is.
    const later = await serverNow(servers[0]!);
    for (const u of users) {
      const mine = [...acknowledged.entries()].filter(([id]) => id.startsWith(`rr-${u.id}-`));
      const expected = mine.reduce((sum, [, accepted]) => sum + accepted, 0);
      expect((await apiAs(servers[0]!, u, later).status()).totalClick).toBe(expected);
    }
  }, 300_000);
});
