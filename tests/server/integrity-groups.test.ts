/**
 * The integrity review's group signals (docs/airdrop.md "Integrity review", "Groups"), through the
 * real API with a stepped clock: one operator's accounts (a referral tree joined within minutes,
 * young Telegram accounts, the same session at fixed offsets, the mini-app's protocol), a ring of
 * invitees nudged just past $100 and abandoned, and friends who joined together after a post.
 */
import { describe, expect, it } from 'vitest';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import type { AirdropFlagsPage } from '../../engine/wire/airdrop-review.ts';
import { refreshIntegrity } from '../../server/integrity/signals-job.ts';
import { integrityRulesOf } from '../../server/integrity/rules.ts';
import { openAdminHarness, operatorKey, type AdminHarness } from './admin-harness.ts';
import { backends, openForSuite } from './harness.ts';

/** Small groups, so each takes a few dozen calls; ids from 2025 on are young, from 2014 old. */
const env = {
  INTEGRITY_TREE_BURST_JOINS: '6',
  INTEGRITY_YOUNG_DAYS: '365',
  INTEGRITY_YOUNG_MIN_INVITEES: '5',
  INTEGRITY_TWIN_SESSIONS: '2',
  INTEGRITY_PAID_MIN_INVITEES: '4',
};

let batchSeq = 0;
let freshId = 8_600_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
let oldId = 150_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
const deviceOf = (n: number) => `grp${String(n).padStart(19, '0')}`;

/** One recorded session: [ms after its start, taps]. */
const recorded: [number, number][] = [
  [0, 5],
  [900, 7],
  [2_100, 4],
  [2_800, 6],
  [4_000, 8],
  [5_200, 5],
];

describe.each(backends)('the integrity review’s group signals (%s)', (backend) => {
  const h = openForSuite<AdminHarness>(() => openAdminHarness(backend, env));
  const rules = () => integrityRulesOf(h.config);
  const runJob = async () => {
    h.clock.advance(61_000);
    return refreshIntegrity(h.db, h.clock.now(), rules());
  };
  const tap = (id: number, click: number, device: string, firstTapMs: number) =>
    h.call('POST', '/click', id, { body: { click, batchId: `g${++batchSeq}`, firstTapMs }, headers: { 'x-device-id': device } });
  const status = async (id: number) => (await h.call('GET', '', id)).json<UserStatus>();
  const invite = async (referrer: number, id: number) => {
    const { refcode } = await status(referrer);
    expect((await h.call('POST', '/referral', id, { query: { refcode } })).statusCode).toBe(200);
  };
  const flagged = async () => {
    const out = new Map<string, string[]>();
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const r: { statusCode: number; body: string; json: <T>() => T } = await h.app.inject({ method: 'GET', url: `${apiPrefix}/public/airdrop/flags`, query: { limit: '100', ...(cursor === null ? {} : { cursor }) }, headers: { 'x-api-key': operatorKey } });
      expect(r.statusCode, r.body).toBe(200);
      const page: AirdropFlagsPage = r.json<AirdropFlagsPage>();
      for (const f of page.items) out.set(f.userId, f.reasons);
      cursor = page.nextCursor;
    }
    return out;
  };
  /** Plays timed batches in time order on the stepped clock: [at, player, taps, device]. */
  const play = async (events: [number, number, number, string][]) => {
    for (const [at, id, taps, device] of events.sort((a, b) => a[0] - b[0])) {
      if (at > h.clock.now()) h.clock.set(at);
      expect((await tap(id, taps, device, at - 40)).statusCode).toBe(200);
    }
  };

  it("flags one operator's accounts and leaves friends who joined after a post clear", async () => {
    // The operator: a root and six accounts under it, joined 20 s apart, each on a fresh device id.
    const farm = [await h.newPlayer({ id: freshId++ })];
    for (let k = 1; k < 7; k++) {
      h.clock.advance(20_000);
      const id = await h.newPlayer({ id: freshId++ });
      await invite(farm[Math.floor((k - 1) / 2)]!, id);
      farm.push(id);
    }
    // Friends after a post: seven old accounts join one referrer within two minutes, each plays as themselves.
    const poster = await h.newPlayer({ id: oldId++ });
    const friends: number[] = [];
    for (let k = 0; k < 7; k++) {
      h.clock.advance(15_000);
      const id = await h.newPlayer({ id: oldId++ });
      await invite(poster, id);
      friends.push(id);
    }
    // Three rounds two hours apart: every farm account replays the recorded session, 30 s after the one before it;
    // each friend plays a session of their own.
    for (let round = 0; round < 3; round++) {
      const start = h.clock.now() + 2 * 3_600_000;
      const events: [number, number, number, string][] = [];
      farm.forEach((id, k) => recorded.forEach(([ms, taps]) => events.push([start + k * 30_000 + ms, id, taps, deviceOf(id % 1_000_000)])));
      friends.forEach((id, k) => {
        for (let b = 0; b < 5 + k; b++) events.push([start + k * 45_000 + b * (700 + ((k * 7 + b * 13 + round * 5) % 11) * 120), id, 2 + ((k + b + round) % 7), deviceOf(500 + k)]);
      });
      await play(events);
      h.clock.advance(rules().sessionGapMs);
      await runJob();
    }
    const list = await flagged();
    for (const id of farm) {
      expect(list.get(String(id)), `farm account ${id}`).toEqual(expect.arrayContaining(['twinSessions']));
      expect((await status(id)).airdropReview.state).toBe('review');
    }
    // The tree's accounts joined within minutes, and they are young: each says so.
    for (const id of farm.slice(1)) expect(list.get(String(id))).toEqual(expect.arrayContaining(['treeBurst', 'youngInvitees', 'twinSessions']));
    for (const id of [poster, ...friends]) expect(list.has(String(id)), `honest ${id}`).toBe(false);
    // The friends joined together: the burst is seen, and alone it is not a review.
    const friend = await h.db.query<{ reasons: string[] }>('SELECT reasons FROM integrity_players WHERE user_id = $1', [friends[3]]);
    expect(friend.rows[0]!.reasons).toEqual(['treeBurst']);
  });

  it('flags a ring of invitees nudged just past $100 and abandoned, and its referrer', async () => {
    const referrer = await h.newPlayer({ id: freshId++ });
    await h.db.query('UPDATE users SET ref_level = 5 WHERE id = $1', [referrer]);
    const ring: number[] = [];
    for (let k = 0; k < 6; k++) {
      h.clock.advance(7 * 60_000);
      const id = await h.newPlayer({ id: freshId++ });
      await invite(referrer, id);
      ring.push(id);
      // 5 batches of 21 taps: $105, then never again.
      const start = h.clock.now() + 30_000;
      await play(recorded.slice(0, 5).map(([ms], b) => [start + b * 1_100 + (ms % 7), id, 21, deviceOf(900 + k)] as [number, number, number, string]));
    }
    await runJob();
    expect((await flagged()).has(String(ring[0]))).toBe(false);
    h.clock.advance(rules().paidJudgeMs);
    await runJob();
    const list = await flagged();
    expect(list.get(String(referrer))).toEqual(expect.arrayContaining(['youngInvitees', 'paidThenStopped']));
    for (const id of ring) expect(list.get(String(id)), `invitee ${id}`).toEqual(expect.arrayContaining(['paidThenStopped', 'referralFarmInvitee']));
  });
});
