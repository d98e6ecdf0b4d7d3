/**
 * The social reads on a real streaming replica (docs/scaling.md "Read replica"): a private
 * primary and its standby made by `pg_basebackup -R` (tests/e2e/replica-pair.ts), the real app on
 * the primary with its social reads through server/core/db/replica.ts. A friend list served while
 * replay is paused shows what the replica has, not what the primary has; past the lag bound, with
 * the replica down, and once it is promoted, the same read comes from the primary. Writes always go
 * to the primary. Checks are called by the test (the check period is an hour), so each state is
 * reached by what happened to the replica, never by waiting a set time.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import { createApp } from '../../server/app.ts';
import { manualClock } from '../../server/core/clock.ts';
import { loadConfig } from '../../server/background/settings.ts';
import { openDb, type Db } from '../../server/core/db/db.ts';
import { openReplicaReads, type ReplicaReads, type ReplicaState } from '../../server/core/db/replica.ts';
import { metrics } from '../../server/core/metrics.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { missingReplicaBinaries, startReplicaPair, type ReplicaPair } from './replica-pair.ts';
import { tempDataDir } from './harness.ts';

const botToken = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';
const missing = missingReplicaBinaries();
const startMs = Date.now();

describe.skipIf(missing.length > 0)(`the social reads on a streaming replica${missing.length > 0 ? ` (skipped: missing ${missing.join(', ')})` : ''}`, () => {
  let pair: ReplicaPair;
  let primary: Db;
  let replicaDb: Db;
  let rr: ReplicaReads;
  let app: FastifyInstance;
  const referrer = 7_200_000_001;
  let refcode = '';
  let nextFriend = 7_200_000_100;

  const as = (userId: number) => `tma ${signInitData(botToken, { user: { id: userId, first_name: `P${userId}`, username: `p${userId}` } }, startMs)}`;
  const call = async <T>(method: 'GET' | 'POST', path: string, userId: number): Promise<T> => {
    const r = await app.inject({ method, url: `${apiPrefix}${path}`, headers: { authorization: as(userId) } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<T>();
  };
  /** The referrer's friend count as the friends list (a social read) serves it. */
  const friendsServed = async () => (await call<{ total: number }>('GET', '/get-ref-users?page=1&pageSize=10', referrer)).total;
  /** One more friend, written through the API (on the primary). */
  const addFriend = async () => {
    const id = nextFriend++;
    await call('GET', '', id);
    await call('POST', `/referral?refcode=${refcode}`, id);
  };
  const friendsOn = async (db: Db) => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM referrals WHERE referrer_id = $1', [referrer])).rows[0]!.n;
  /** Waits until a check finds `state` (bounded by the test's timeout). */
  const checkUntil = async (state: ReplicaState) => {
    while ((await rr.check()) !== state) await new Promise((r) => setTimeout(r, 50));
  };
  const inUse = async () => (await metrics.db.replicaInUse.get()).values[0]?.value;
  const fallbacks = async (reason: string) => (await metrics.db.replicaFallbacks.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

  beforeAll(async () => {
    pair = await startReplicaPair();
    const config = loadConfig({ BOT_TOKEN: botToken, NODE_ENV: 'test', DATABASE_URL: pair.primaryUrl, DATA_DIR: tempDataDir() });
    primary = await openDb(config);
    replicaDb = await openDb({ DATABASE_URL: pair.replicaUrl, DATA_DIR: config.DATA_DIR }, { migrate: false, poolName: 'replica', connectTimeoutMs: 500 });
    rr = await openReplicaReads(primary, replicaDb, { maxLagMs: 1_000, checkMs: 3_600_000 });
    app = await createApp({ db: primary, reads: rr.reads, config, clock: manualClock(startMs) });
    refcode = (await call<UserStatus>('GET', '', referrer)).refcode;
    await addFriend();
    while ((await friendsOn(replicaDb)) < 1) await new Promise((r) => setTimeout(r, 20));
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await rr?.close();
    await primary?.close();
    pair?.destroy();
  });

  it('serves the friends list from the replica while it is fresh: a friend added while replay is paused is not there yet', async () => {
    await checkUntil('replica');
    expect(await inUse()).toBe(1);
    await pair.pauseReplay();
    await addFriend();
    expect(await friendsOn(primary)).toBe(2);
    expect(await friendsOn(replicaDb)).toBe(1);
    // The read went to the replica (the primary has 2), the write that preceded it to the primary.
    expect(await friendsServed()).toBe(1);
  });

  it('goes back to the primary once the replica lags past the bound, and says so in the metrics', async () => {
    const before = await fallbacks('lagging');
    await checkUntil('lagging');
    expect(rr.lagMs()).toBeGreaterThan(1_000);
    expect(await friendsServed()).toBe(2);
    expect(await inUse()).toBe(0);
    expect(await fallbacks('lagging')).toBe(before + 1);
    await pair.resumeReplay();
    await checkUntil('replica');
    expect(await friendsServed()).toBe(2);
  });

  it('answers from the primary when the replica is down, in the same request, and returns once it is back', async () => {
    pair.stopReplica();
    await addFriend();
    // The check has not run: the read fails on the replica and is served by the primary at once.
    expect(rr.state()).toBe('replica');
    expect(await friendsServed()).toBe(3);
    expect(rr.state()).toBe('down');
    expect(await rr.check()).toBe('down');
    expect(await friendsServed()).toBe(3);
    pair.startReplica();
    await checkUntil('replica');
    while ((await friendsOn(replicaDb)) < 3) await new Promise((r) => setTimeout(r, 20));
    expect(await friendsServed()).toBe(3);
  });

  it('leaves a promoted replica: it no longer follows the primary', async () => {
    pair.promote();
    await checkUntil('promoted');
    expect(await inUse()).toBe(0);
    await addFriend();
    // Written on the primary only; the promoted server never sees it, and the read does.
    expect(await friendsOn(replicaDb)).toBe(3);
    expect(await friendsServed()).toBe(4);
  });
});
