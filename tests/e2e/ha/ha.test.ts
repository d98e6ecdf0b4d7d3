/**
 * No single point of failure, for real on 127.0.0.1 (docs/deploy.md "High availability",
 * docs/operations.md "Failover"): etcd, three Patroni members running PostgreSQL 15 in synchronous
 * mode, HAProxy rendered from ops/ha/, and MONEY with DATABASE_URL on HAProxy's write port and
 * DATABASE_REPLICA_URL on its read port, under steady click load from many players.
 * - The leader's machine is lost (kill -9 of its Patroni and every PostgreSQL process): a standby
 *   is promoted, MONEY answers 503 databaseAway meanwhile and recovers by itself, every
 *   acknowledged tap is in the new leader's ledger exactly once, a batch whose answer was lost is
 *   credited once when resent, and the old leader rejoins as a replica.
 * - A planned `patronictl switchover`, under the same load.
 * - A replica is lost: the social reads stay answered.
 * - The API tier: two MONEY processes behind HAProxy's /readyz check; a rolling restart fails
 *   nothing but 503s with Retry-After, and a process killed with -9 is taken out of rotation.
 * Every state is waited for by polling; the times measured are printed, never asserted.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from '../../../server/dev/stand-ins/fake-telegram.ts';
import { removeDir, startServer, tempDataDir, type RunningServer } from '../harness.ts';
import { checkLedger, startClickLoad, type Ack, type ClickLoad } from './click-load.ts';
import { missingHaBinaries, sqlOn, startHaCluster, type HaCluster } from './ha-cluster.ts';

const missing = missingHaBinaries();
if (missing.length > 0) console.warn(`ha: skipped, missing ${missing.join(', ')} (node .ci/ensure-ha.mjs installs them)`);
const token = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const players = Array.from({ length: 12 }, (_, i) => 6_500_000_000 + i);

describe.skipIf(missing.length > 0)('PostgreSQL with Patroni failover and the API behind HAProxy (127.0.0.1)', () => {
  let cluster: HaCluster;
  let telegram: FakeTelegram;
  const servers: (RunningServer | undefined)[] = [undefined, undefined];
  const dataDirs = [tempDataDir(), tempDataDir()];
  /** Every acknowledged batch of every phase: the ledger holds exactly these. */
  const allAcks = new Map<string, Ack>();
  const prefixes: string[] = [];
  const nowMs = Date.now();

  const startMoney = async (i: 0 | 1): Promise<RunningServer> => {
    servers[i] = await startServer({
      dataDir: dataDirs[i]!,
      databaseUrl: cluster.writeUrl,
      env: {
        PORT: String(cluster.apiPorts[i]),
        BOT_TOKEN: token,
        BOT_API_ROOT: telegram.apiRoot,
        // Two processes take Telegram's updates by webhook (only one may long-poll).
        WEBHOOK_URL: 'https://money.example/money/api/v1/airdrop/public/telegram-webhook',
        DATABASE_REPLICA_URL: cluster.readUrl,
        REPLICA_CHECK_MS: '500',
      },
    });
    return servers[i]!;
  };
  const money = (i: 0 | 1) => {
    const s = servers[i];
    if (s === undefined) throw new Error(`MONEY ${i + 1} is not running`);
    return s;
  };
  const running = new Set<ClickLoad>();
  const load = (prefix: string, base: () => string): ClickLoad => {
    prefixes.push(prefix);
    const l = startClickLoad({ base, botToken: token, userIds: players, nowMs, prefix, pauseMs: 100 });
    running.add(l);
    return l;
  };
  const finish = async (l: ClickLoad) => {
    await l.stop();
    running.delete(l);
    for (const [id, a] of l.acknowledged) allAcks.set(id, a);
  };
  const ledgerOn = async (memberName: string) => {
    const url = cluster.members.find((m) => m.name === memberName)!.url;
    return checkLedger((text, params) => sqlOn(url, text, params), allAcks, prefixes);
  };
  /** One click batch sent straight to `base`, its answer read (or not). */
  const click = async (base: string, userId: number, batchId: string, signal?: AbortSignal) => {
    const { initDataOf, launchUrl } = await import('../../../server/dev/launch-url.ts');
    const auth = `tma ${initDataOf(launchUrl({ publicUrl: base, botToken: token, user: { id: userId, first_name: `P${userId}`, username: `p${userId}`, language_code: 'en' }, nowMs }))}`;
    return fetch(`${base}/money/api/v1/airdrop/click`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ click: 1, batchId, seq: 1 }),
      ...(signal !== undefined ? { signal } : {}),
    });
  };
  /** Resends `batchId` until it is acknowledged; returns the answer's accepted taps. */
  const resendUntilAcknowledged = async (base: string, userId: number, batchId: string): Promise<number> => {
    for (;;) {
      const res = await click(base, userId, batchId).catch(() => undefined);
      if (res?.status === 200) {
        const accepted = ((await res.json()) as { accepted: number }).accepted;
        allAcks.set(batchId, { userId, accepted, at: performance.now(), sentAt: performance.now(), firstSentAt: performance.now() });
        return accepted;
      }
      await sleep(200);
    }
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram(token);
    cluster = await startHaCluster({ log: (m) => console.info(`ha: ${m}`) });
    // Both processes start together (the second one serves only the API tier's test): a start is
    // the slowest step on a busy machine.
    await Promise.all([startMoney(0), startMoney(1)]);
    // The players exist before the load starts.
    for (const id of players) expect((await resendUntilAcknowledged(money(0).base, id, `hello-${id}`)) >= 0).toBe(true);
    prefixes.push('hello');
  }, 420_000);
  // A failed test leaves no load running into the next one, and says what the cluster looked like.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && cluster !== undefined) {
      console.error(`ha: after the failure: ${JSON.stringify(await cluster.members_())}\n${cluster.logs()}\n${servers.map((s) => s?.output().split('\n').slice(-15).join('\n') ?? '').join('\n')}`);
    }
    for (const l of running) await finish(l);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s?.stop('SIGKILL')));
    await cluster?.destroy();
    await telegram?.close();
    for (const d of dataDirs) removeDir(d);
  });

  it('loses the leader machine: a synchronous standby is promoted, 503 meanwhile, every acknowledged tap once, the old leader rejoins', async () => {
    const oldLeader = await cluster.waitForLeader();
    const l = load('failover', () => money(0).base);
    await l.acksAfter(40);

    // A batch acknowledged by the old leader whose answer the player never got: resent later.
    const lostAnswer = await click(money(0).base, players[0]!, 'lost-answer-1');
    expect(lostAnswer.status).toBe(200);
    const firstAccepted = ((await lostAnswer.json()) as { accepted: number }).accepted;
    // A batch in flight at the moment of the kill: whether it committed is unknown to the player.
    const inFlight = click(money(0).base, players[1]!, 'lost-answer-2', AbortSignal.timeout(50)).catch(() => undefined);

    const killedAt = performance.now();
    cluster.killMachine(oldLeader);
    await inFlight;
    const newLeader = await cluster.waitForLeader(60_000, oldLeader);
    // Writes are acknowledged again once HAProxy sends the write port to the new leader.
    while (![...l.acknowledged.values()].some((a) => a.sentAt > killedAt)) await sleep(50);
    const firstWrite = Math.min(...[...l.acknowledged.values()].filter((a) => a.sentAt > killedAt).map((a) => a.at));
    await l.acksAfter(40);

    // Resent with the same batchId: the first one is answered as it was (a replay), the one in
    // flight is credited now or was already; neither twice.
    expect(await resendUntilAcknowledged(money(0).base, players[0]!, 'lost-answer-1')).toBe(firstAccepted);
    await resendUntilAcknowledged(money(0).base, players[1]!, 'lost-answer-2');

    cluster.startMember(oldLeader);
    await cluster.waitForReplicas(2);
    const roles = await cluster.members_();
    expect(roles.find((m) => m.name === oldLeader)?.role).toMatch(/^(replica|sync_standby)$/);
    expect(roles.find((m) => m.name === newLeader)?.role).toBe('leader');
    await l.acksAfter(20);
    await finish(l);

    console.info(`ha: failover ${oldLeader} → ${newLeader}: first acknowledged write ${((firstWrite - killedAt) / 1000).toFixed(1)} s after the kill, ${l.unavailable.length} answers 503, ${l.lostAnswers.length} answers lost and resent, ${l.acknowledged.size} batches`);
    expect(l.failures).toEqual([]);
    expect(l.unavailable.length).toBeGreaterThan(0);
    for (const u of l.unavailable) {
      expect(u.retryAfter).toBe('1');
      // A commit cut off by the kill says its outcome is unknown (docs/api.md "Errors"); resent, it is credited once.
      expect(u.code).toMatch(/^(databaseAway|outcomeUnknown)$/);
    }
    expect(money(0).proc.exitCode, money(0).output()).toBeNull();
    expect(await ledgerOn(newLeader)).toEqual({ lost: [], doubled: [], unacknowledged: [], wrongTotals: [] });
    // The rejoined old leader has the same ledger (it replays the new leader's WAL).
    const oldLedger = await (async () => {
      for (;;) {
        const r = await ledgerOn(oldLeader).catch(() => undefined);
        if (r !== undefined && r.lost.length === 0 && r.wrongTotals.length === 0) return r;
        await sleep(200);
      }
    })();
    expect(oldLedger).toEqual({ lost: [], doubled: [], unacknowledged: [], wrongTotals: [] });
  }, 240_000);

  it('switches over under load (patronictl switchover): the new leader takes writes, nothing lost or doubled', async () => {
    const oldLeader = await cluster.waitForLeader();
    const l = load('switchover', () => money(0).base);
    await l.acksAfter(40);
    await cluster.switchover();
    const newLeader = await cluster.waitForLeader(60_000, oldLeader);
    const ledAt = performance.now();
    while (![...l.acknowledged.values()].some((a) => a.sentAt > ledAt)) await sleep(50);
    await l.acksAfter(40);
    await cluster.waitForReplicas(2);
    await finish(l);
    console.info(`ha: switchover ${oldLeader} → ${newLeader}: ${l.unavailable.length} answers 503, ${l.acknowledged.size} batches`);
    expect(l.failures).toEqual([]);
    for (const u of l.unavailable) expect(u.code).toMatch(/^(databaseAway|outcomeUnknown)$/);
    expect(await ledgerOn(newLeader)).toEqual({ lost: [], doubled: [], unacknowledged: [], wrongTotals: [] });
  }, 240_000);

  it('loses a replica (the synchronous standby): the social reads stay answered and writes go on', async () => {
    const states = await cluster.members_();
    const standby = states.find((m) => m.role === 'sync_standby')!.name;
    const l = load('replica-loss', () => money(0).base);
    await l.acksAfter(20);
    const { initDataOf, launchUrl } = await import('../../../server/dev/launch-url.ts');
    const auth = `tma ${initDataOf(launchUrl({ publicUrl: money(0).base, botToken: token, user: { id: players[2]!, first_name: 'P', username: 'p', language_code: 'en' }, nowMs }))}`;
    const socialRead = async () => (await fetch(`${money(0).base}/money/api/v1/airdrop/get-ref-users?page=1&pageSize=10`, { headers: { authorization: auth } })).status;
    expect(await socialRead()).toBe(200);
    cluster.killMachine(standby);
    const statuses: number[] = [];
    // Reads while the standby is gone and Patroni makes the other replica synchronous.
    const ackBefore = l.acknowledged.size;
    while (l.acknowledged.size < ackBefore + 40 || statuses.length < 20) {
      statuses.push(await socialRead());
      await sleep(50);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    cluster.startMember(standby);
    await cluster.waitForReplicas(2);
    await finish(l);
    expect(l.failures).toEqual([]);
    expect(await ledgerOn(await cluster.waitForLeader())).toEqual({ lost: [], doubled: [], unacknowledged: [], wrongTotals: [] });
  }, 240_000);

  it('API tier: a rolling restart behind HAProxy fails nothing but 503s with Retry-After; a process killed with -9 leaves the rotation', async () => {
    const upBoth = async () => {
      for (const name of ['money1', 'money2']) while ((await cluster.haproxyStatus('money_api', name)) !== 'UP') await sleep(100);
    };
    await upBoth();
    const l = load('rolling', () => cluster.apiBase);
    await l.acksAfter(40);
    for (const i of [0, 1] as const) {
      expect(await money(i).stop('SIGTERM')).toBe(0);
      const before = l.acknowledged.size;
      await startMoney(i);
      await upBoth();
      while (l.acknowledged.size < before + 20) await sleep(20);
    }
    await l.acksAfter(20);
    await finish(l);
    console.info(`ha: rolling restart: ${l.unavailable.length} answers 503, ${l.lostAnswers.length} lost, ${l.acknowledged.size} batches`);
    expect(l.failures).toEqual([]);
    // A process serves on after SIGTERM until HAProxy has had its two "draining" answers to
    // /readyz, so HAProxy sends it nothing once its port closes: no answer is lost.
    expect(l.lostAnswers).toEqual([]);
    for (const u of l.unavailable) expect(u.retryAfter).not.toBeNull();

    const k = load('kill-api', () => cluster.apiBase);
    await k.acksAfter(40);
    const killedAt = performance.now();
    await money(1).stop('SIGKILL');
    servers[1] = undefined;
    while ((await cluster.haproxyStatus('money_api', 'money2')) !== 'DOWN') await sleep(50);
    const downAfter = performance.now() - killedAt;
    // From then on every request goes to the live process: none is lost.
    const lostBefore = k.lostAnswers.length;
    await k.acksAfter(60);
    expect(k.lostAnswers.slice(lostBefore).map((x) => `${x.what} at +${Math.round(x.at - killedAt)} ms (down at +${Math.round(downAfter)} ms)`)).toEqual([]);
    await finish(k);
    console.info(`ha: kill -9 of an API process: HAProxy marked it down after ${(downAfter / 1000).toFixed(1)} s; ${k.lostAnswers.length} answers lost and resent meanwhile`);
    expect(k.failures).toEqual([]);
    expect(await ledgerOn(await cluster.waitForLeader())).toEqual({ lost: [], doubled: [], unacknowledged: [], wrongTotals: [] });
  }, 480_000);
});
