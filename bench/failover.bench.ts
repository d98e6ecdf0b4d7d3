/**
 * `npm run bench:failover` (under flock /tmp/money-bench.lock): the cluster of docs/deploy.md
 * "High availability" on 127.0.0.1 (tests/e2e/ha/ha-cluster.ts: etcd, three Patroni members in
 * synchronous mode, HAProxy, all from ops/ha/), MONEY on HAProxy's write and read ports, and steady
 * click load from many players (tests/e2e/ha/click-load.ts: each batch resent with its batchId
 * until a 200 acknowledges it). Five failovers (kill -9 of the leader's Patroni and PostgreSQL,
 * then the old leader rejoins) and five switchovers (`patronictl switchover`), one after another.
 * For each: the time from the kill (or the switchover command) to the first acknowledged write
 * sent after it (for a switchover, sent after Patroni names the new leader), the longest any
 * batch waited for its acknowledgement, the 503s players saw, and, on the new leader's ledger,
 * the taps acknowledged and then lost and the taps counted twice. Writes its section of
 * bench/RESULTS.md.
 */
import { cpus, loadavg } from 'node:os';
import { startFakeTelegram } from '../server/dev/stand-ins/fake-telegram.ts';
import { removeDir, startServer, tempDataDir, type RunningServer } from '../tests/e2e/harness.ts';
import { checkLedger, startClickLoad, type Ack } from '../tests/e2e/ha/click-load.ts';
import { missingHaBinaries, sqlOn, startHaCluster, type HaCluster } from '../tests/e2e/ha/ha-cluster.ts';
import { writeSection } from './results.ts';

const rounds = Number(process.env.FAILOVER_ROUNDS ?? '5');
const playerCount = 16;
const token = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';
const goals = { failoverS: 15, switchoverS: 5 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Round {
  kind: 'failover' | 'switchover';
  from: string;
  to: string;
  /** Seconds from the event to the first acknowledged write sent after it. */
  firstWriteS: number;
  /** The longest any batch first sent in the round waited for its acknowledgement (s). */
  longestWaitS: number;
  unavailable: number;
  lostAnswers: number;
  lost: number;
  doubled: number;
}

const main = async () => {
  const missing = missingHaBinaries();
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')} (node .ci/ensure-ha.mjs installs them)`);
  const loadBefore = loadavg()[0]!;
  const telegram = await startFakeTelegram(token);
  const dataDir = tempDataDir();
  let cluster: HaCluster | undefined;
  let server: RunningServer | undefined;
  try {
    cluster = await startHaCluster({ log: (m) => console.log(`failover: ${m}`), portBase: 55520 });
    const c = cluster;
    server = await startServer({
      dataDir,
      databaseUrl: c.writeUrl,
      env: { BOT_TOKEN: token, BOT_API_ROOT: telegram.apiRoot, DATABASE_REPLICA_URL: c.readUrl, REPLICA_CHECK_MS: '500' },
    });
    const s = server;
    const players = Array.from({ length: playerCount }, (_, i) => 6_600_000_000 + i);
    const load = startClickLoad({ base: () => s.base, botToken: token, userIds: players, nowMs: Date.now(), prefix: 'bench', pauseMs: 100 });
    await load.acksAfter(100);
    const results: Round[] = [];
    const ledgerNow = async (leader: string) => {
      const url = c.members.find((m) => m.name === leader)!.url;
      // The batches acknowledged so far; a player's batch in flight is not in the map yet.
      const acks = new Map<string, Ack>(load.acknowledged);
      const r = await checkLedger((text, params) => sqlOn(url, text, params), acks, []);
      return { lost: r.lost.length, doubled: r.doubled.length };
    };

    for (const kind of ['failover', 'switchover'] as const) {
      for (let i = 0; i < rounds; i++) {
        const from = await c.waitForLeader();
        await c.waitForReplicas(2);
        await load.acksAfter(50);
        const unavailableBefore = load.unavailable.length;
        const lostBefore = load.lostAnswers.length;
        const at = performance.now();
        let after = at;
        if (kind === 'failover') c.killMachine(from);
        else await c.switchover();
        const to = await c.waitForLeader(90_000, from);
        if (kind === 'switchover') after = performance.now();
        while (![...load.acknowledged.values()].some((a) => a.sentAt > after)) await sleep(20);
        const firstWrite = Math.min(...[...load.acknowledged.values()].filter((a) => a.sentAt > after).map((a) => a.at));
        await load.acksAfter(50);
        const longestWait = Math.max(...[...load.acknowledged.values()].filter((a) => a.firstSentAt >= at).map((a) => a.at - a.firstSentAt));
        if (kind === 'failover') c.startMember(from);
        await c.waitForReplicas(2);
        const ledger = await ledgerNow(to);
        const round: Round = {
          kind,
          from,
          to,
          firstWriteS: (firstWrite - at) / 1000,
          longestWaitS: longestWait / 1000,
          unavailable: load.unavailable.length - unavailableBefore,
          lostAnswers: load.lostAnswers.length - lostBefore,
          ...ledger,
        };
        results.push(round);
        console.log(`failover: ${JSON.stringify(round)}`);
      }
    }
    await load.stop();
    const leader = await c.waitForLeader();
    const final = await checkLedger((text, params) => sqlOn(c.members.find((m) => m.name === leader)!.url, text, params), load.acknowledged, ['bench']);
    const loadAfter = loadavg()[0]!;

    const fmt = (x: number) => x.toFixed(1);
    const summary = (kind: Round['kind']) => {
      const rs = results.filter((r) => r.kind === kind);
      const first = rs.map((r) => r.firstWriteS).sort((a, b) => a - b);
      return { rs, median: first[Math.floor(first.length / 2)] ?? NaN, max: first.at(-1) ?? NaN };
    };
    const fo = summary('failover');
    const so = summary('switchover');
    const totalLost = final.lost.length + results.reduce((n, r) => n + r.lost, 0);
    const totalDoubled = final.doubled.length + results.reduce((n, r) => n + r.doubled, 0);
    const checks = [
      [`a lost leader's machine: first acknowledged write within ${goals.failoverS} s of the kill in every round (slowest ${fmt(fo.max)} s)`, fo.max <= goals.failoverS],
      [`a switchover: first acknowledged write on the new leader within ${goals.switchoverS} s of the command in every round (slowest ${fmt(so.max)} s)`, so.max <= goals.switchoverS],
      [`taps acknowledged and then lost: ${totalLost}`, totalLost === 0],
      [`taps counted twice: ${totalDoubled}`, totalDoubled === 0],
      [`every batch's taps match the players' totals on the last leader (${final.wrongTotals.length} players off, ${final.unacknowledged.length} batches stored but never acknowledged)`, final.wrongTotals.length === 0 && final.unacknowledged.length === 0],
      [`no answer other than 200, 503 or a lost one (${load.failures.length}: ${load.failures.slice(0, 3).join('; ')})`, load.failures.length === 0],
    ] as const;
    writeSection(
      'failover',
      `## PostgreSQL failover and switchover under click load (\`npm run bench:failover\`)

The cluster of docs/deploy.md "High availability" on 127.0.0.1, from ops/ha/'s templates: one etcd, three Patroni 3.0 members running PostgreSQL 15 in synchronous mode (ttl 10 s, loop_wait 2 s, retry_timeout 4 s), HAProxy 2.6 with the write port on Patroni's \`/primary\` check and the read port on \`/replica\` (checks every second, two failures mark a member down). One MONEY process with DATABASE_URL on the write port and DATABASE_REPLICA_URL on the read port; ${playerCount} players tapping all the time, one batch in flight each, every batch resent with its batchId until acknowledged (a 503 after a fifth of its Retry-After). ${rounds} failovers (kill -9 of the leader's Patroni and every PostgreSQL process, then its Patroni started again: it rejoins as a replica) and ${rounds} switchovers (\`patronictl switchover --force\`), one after another. "First write" is the time from the kill (or the switchover command) to the first acknowledgement of a batch sent after it (for a switchover: sent after Patroni named the new leader); "longest wait" is the longest a batch first sent in the round waited for its 200, resends included. Lost and doubled are read on the new leader's ledger after each round: every acknowledged batch that credited taps has exactly one click row. Machine: ${cpus().length} cores shared with other work, 1-minute load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after.

| round | from → to | first write s | longest wait s | 503s seen | answers lost and resent | taps lost | taps doubled |
|---|---|---|---|---|---|---|---|
${results.map((r) => `| ${r.kind} | ${r.from} → ${r.to} | ${fmt(r.firstWriteS)} | ${fmt(r.longestWaitS)} | ${r.unavailable} | ${r.lostAnswers} | ${r.lost} | ${r.doubled} |`).join('\n')}

Failover: median first write ${fmt(fo.median)} s, slowest ${fmt(fo.max)} s (goal ≤ ${goals.failoverS} s). Switchover: median ${fmt(so.median)} s, slowest ${fmt(so.max)} s (goal ≤ ${goals.switchoverS} s). ${load.acknowledged.size} batches acknowledged in all, ${load.unavailable.length} answers 503 \`databaseAway\` (${new Set(load.unavailable.map((u) => String(u.code))).size === 1 ? `all ${String(load.unavailable[0]?.code ?? 'none')}` : `codes ${[...new Set(load.unavailable.map((u) => String(u.code)))].join(', ')}`}).

${checks.map(([text, met]) => `- ${met ? 'Met' : '**NOT met**'}: ${text}.`).join('\n')}`,
    );
    console.log(checks.map(([text, met]) => `${met ? 'met' : 'NOT MET'}: ${text}`).join('\n'));
  } finally {
    await server?.stop('SIGKILL');
    await cluster?.destroy();
    await telegram.close();
    removeDir(dataDir);
  }
};

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
