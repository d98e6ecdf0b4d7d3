/**
 * The integrity review (docs/airdrop.md "Integrity review"), through the real API with a stepped
 * clock: players tap and invite as clients would, the signals job runs, and the status, the
 * operators' list, the console's decisions (with their audit rows) and the snapshot follow.
 */
import { describe, expect, it } from 'vitest';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import { refreshIntegrity } from '../../server/integrity/signals-job.ts';
import { integrityRulesOf } from '../../server/integrity/rules.ts';
import { adminId, openAdminHarness, operatorKey, type AdminHarness } from './admin-harness.ts';
import { withAuditRefused } from './db-helpers.ts';
import { backends, openForSuite } from './harness.ts';

/** Small thresholds, so each farm takes a few dozen calls. */
const env = {
  INTEGRITY_CAP_MIN_ACTIVE_S: '40',
  INTEGRITY_BURST_INVITES: '8',
  INTEGRITY_IDLE_MIN_INVITES: '8',
  INTEGRITY_SHARED_INVITEES: '3',
  // The group signals' own test sets its thresholds; here young accounts are those under a day old.
  INTEGRITY_YOUNG_DAYS: '1',
};

const deviceOf = (n: number) => `dev${String(n).padStart(19, '0')}`;
let batchSeq = 0;
/** Telegram ids from mid-2025 on: accounts a few months old, with no trust (server/players/tele-age.ts). */
let freshId = 8_600_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

describe.each(backends)('the integrity review (%s)', (backend) => {
  type H = AdminHarness & { session: Awaited<ReturnType<AdminHarness['signIn']>> };
  const h = openForSuite<H>(async () => {
    const a = await openAdminHarness(backend, env);
    return { ...a, session: await a.signIn() };
  });
  const rules = () => integrityRulesOf(h.config);
  const runJob = async () => {
    // The job folds batches up to a minute old: let that minute pass first.
    h.clock.advance(61_000);
    return refreshIntegrity(h.db, h.clock.now(), rules());
  };
  const tap = (id: number, click: number, device: string | null, batch = true) =>
    h.call('POST', '/click', id, { body: { click, ...(batch ? { batchId: `b${++batchSeq}` } : {}) }, headers: device === null ? {} : { 'x-device-id': device } });
  const fresh = () => h.newPlayer({ id: freshId++ });
  const status = async (id: number) => (await h.call('GET', '', id)).json<UserStatus>();
  const byKey = (path: string) => h.app.inject({ method: 'GET', url: `${apiPrefix}${path}`, headers: { 'x-api-key': operatorKey } });
  const audits = async (target: string) =>
    (await h.db.query<{ action: string; admin_id: string }>('SELECT action, admin_id::text FROM admin_audit WHERE target = $1 ORDER BY id', [target])).rows;

  /** A script: sessions of 25 batches of 20 taps, 1 s apart, 45 minutes apart (a full tank each time). */
  const script = async (id: number, device: string, sessions: number) => {
    for (let s = 0; s < sessions; s++) {
      for (let i = 0; i < 25; i++) {
        expect((await tap(id, 20, device)).statusCode).toBe(200);
        h.clock.advance(1_000);
      }
      h.clock.advance(45 * 60_000);
    }
  };

  /** A person: bursts of 2–9 taps 300–1,300 ms apart, breaks of seconds, and long pauses. */
  const person = async (id: number, device: string, seed: number) => {
    let x = seed;
    const rnd = () => ((x = (x * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    for (let s = 0; s < 3; s++) {
      for (let i = 0; i < 30; i++) {
        await tap(id, 2 + Math.floor(rnd() * 8), device);
        h.clock.advance(rnd() < 0.2 ? 3_000 + Math.floor(rnd() * 10_000) : 300 + Math.floor(rnd() * 1_000));
      }
      h.clock.advance(2 * 3_600_000);
    }
  };

  it('refuses a malformed device id with a 400 naming x-device-id, and changes nothing', async () => {
    const id = await h.newPlayer();
    for (const bad of ['short', `${'a'.repeat(21)}!`, 'a'.repeat(23), `${'a'.repeat(21)} `]) {
      const r = await h.call('POST', '/click', id, { body: { click: 5, batchId: `bad-${bad.length}-${++batchSeq}` }, headers: { 'x-device-id': bad } });
      expect(r.statusCode, bad).toBe(400);
      expect(r.json()).toMatchObject({ field: 'x-device-id' });
    }
    expect((await status(id)).totalClick).toBe(0);
    expect((await h.db.query('SELECT 1 FROM click_batches WHERE user_id = $1', [id])).rows).toEqual([]);
    expect((await h.db.query('SELECT 1 FROM integrity_devices WHERE user_id = $1', [id])).rows).toEqual([]);
  });

  it('records each player’s device once a day, and a batch without the mini-app’s ids as none', async () => {
    const id = await h.newPlayer();
    await tap(id, 3, deviceOf(1));
    await tap(id, 3, deviceOf(1));
    await tap(id, 3, null, false);
    const rows = await h.db.query<{ device_id: string }>('SELECT device_id FROM integrity_devices WHERE user_id = $1 ORDER BY device_id', [id]);
    expect(rows.rows.map((r) => r.device_id)).toEqual(['', deviceOf(1)]);
  });

  it('reviews a script at the cap and leaves a person clear; the status says so', async () => {
    const bot = await fresh();
    const human = await fresh();
    await script(bot, deviceOf(100), 3);
    await person(human, deviceOf(101), 42);
    await runJob();
    const s = await status(bot);
    expect(s.airdropReview.state).toBe('review');
    expect(s.airdropReview.reasons).toEqual(expect.arrayContaining(['tapRhythm', 'tapAtCap']));
    expect((await status(human)).airdropReview).toEqual({ state: 'clear', reasons: [] });
    const row = await h.db.query<{ windows: number; regular_windows: number }>('SELECT windows, regular_windows FROM integrity_players WHERE user_id = $1', [human]);
    expect(row.rows[0]!.windows).toBeGreaterThan(0);
    expect(row.rows[0]!.regular_windows).toBe(0);
  });

  it('reviews every account on a shared device, and a client that never sends the mini-app’s device id', async () => {
    const farm: number[] = [];
    for (let i = 0; i < 6; i++) farm.push(await fresh());
    for (const id of farm) await tap(id, 5, deviceOf(200));
    const family: number[] = [];
    for (let i = 0; i < 3; i++) family.push(await fresh());
    for (const id of family) await tap(id, 5, deviceOf(201));
    const apiClient = await fresh();
    await tap(apiClient, 5, null);
    await runJob();
    for (const id of farm) expect((await status(id)).airdropReview).toEqual({ state: 'review', reasons: ['sharedDevice'] });
    for (const id of family) expect((await status(id)).airdropReview.state).toBe('clear');
    expect((await status(apiClient)).airdropReview).toEqual({ state: 'review', reasons: ['apiClient'] });
  });

  it('reviews a referrer whose invitees arrive in a burst and never reach $100, and those invitees', async () => {
    const referrer = await fresh();
    await h.db.query('UPDATE users SET ref_level = 5 WHERE id = $1', [referrer]);
    const { refcode } = await status(referrer);
    const invitees: number[] = [];
    for (let i = 0; i < 10; i++) {
      const id = await fresh();
      expect((await h.call('POST', '/referral', id, { query: { refcode } })).statusCode).toBe(200);
      invitees.push(id);
      h.clock.advance(20_000);
    }
    // A friend invited by a person, who plays: not touched by the farm next door.
    const friendOfFarm = invitees[0]!;
    for (let i = 0; i < 6; i++) {
      await tap(friendOfFarm, 20, deviceOf(300));
      h.clock.advance(1_100);
    }
    await runJob();
    // A burst alone is one reason: not yet a farm.
    expect((await status(referrer)).airdropReview.state).toBe('clear');
    h.clock.advance(rules().idleAfterMs);
    // The friend plays on after $100: not one who stopped there.
    await tap(friendOfFarm, 3, deviceOf(300));
    await runJob();
    const r = await status(referrer);
    expect(r.airdropReview).toEqual({ state: 'review', reasons: ['referralBurst', 'referralsIdle'] });
    for (const id of invitees.slice(1)) expect((await status(id)).airdropReview).toEqual({ state: 'review', reasons: ['referralFarmInvitee'] });
    // The friend reached $100 (6 × 20 taps): they played, they are not part of the farm.
    expect((await status(friendOfFarm)).airdropReview.state).toBe('clear');
  });

  it('lists flagged players highest score first, keyset-paged, to the operator key only', async () => {
    expect((await h.app.inject({ method: 'GET', url: `${apiPrefix}/public/airdrop/flags` })).statusCode).toBe(400);
    expect((await h.app.inject({ method: 'GET', url: `${apiPrefix}/public/airdrop/flags`, headers: { 'x-api-key': 'wrong' } })).statusCode).toBe(401);
    const all: { userId: string; score: number; state: string; reasons: string[] }[] = [];
    let cursor: string | null = null;
    let firstCursor: string | null = null;
    do {
      const r = await byKey(`/public/airdrop/flags?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      expect(r.statusCode, r.body).toBe(200);
      const page = r.json<{ items: typeof all; nextCursor: string | null }>();
      expect(page.items.length).toBeLessThanOrEqual(3);
      all.push(...page.items);
      cursor = page.nextCursor;
      firstCursor ??= cursor;
    } while (cursor !== null);
    expect(all.length).toBeGreaterThanOrEqual(17);
    expect(new Set(all.map((f) => f.userId)).size).toBe(all.length);
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.score > b.score || (a.score === b.score && BigInt(a.userId) > BigInt(b.userId))).toBe(true);
    }
    expect(all.every((f) => f.state === 'review' && f.reasons.length > 0)).toBe(true);
    for (const [query, field] of [
      ['cursor=12', 'cursor'],
      ['cursor=12:0', 'cursor'],
      ['cursor=99999999999:5', 'cursor'],
      ['cursor=5:99999999999999999', 'cursor'],
      ['cursor=a:b', 'cursor'],
      // Well-formed positions no page issued: forged, or signed for another list.
      ['cursor=130:10850501556', 'cursor'],
      [`cursor=${encodeURIComponent(`${all[2]!.score}:${all[2]!.userId}:${'A'.repeat(22)}`)}`, 'cursor'],
      [`cursor=${encodeURIComponent(firstCursor!.replace(/:\d+:/, `:${BigInt(firstCursor!.split(':')[1]!) - 1n}:`))}`, 'cursor'],
      [`state=excluded&cursor=${encodeURIComponent(firstCursor!)}`, 'cursor'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['state=maybe', 'state'],
      ['other=1', 'other'],
    ] as const) {
      const r = await byKey(`/public/airdrop/flags?${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json(), query).toMatchObject({ field });
    }
  });

  it('lets an operator clear or exclude a player and decide an appeal, each with its audit row; bad input changes nothing', async () => {
    const id = await fresh();
    await tap(id, 5, null);
    await runJob();
    expect((await status(id)).airdropReview.state).toBe('review');
    h.session = await h.signIn();
    const decide = (body: unknown, who = id) => h.admin('POST', `/integrity/players/${who}/decision`, h.session, { body });
    const appeal = (body: unknown, who = id) => h.admin('POST', `/integrity/players/${who}/appeal`, h.session, { body });

    // Refused: nothing changes, no audit row.
    for (const [body, field] of [
      [{ decision: 'maybe' }, 'decision'],
      [{}, 'decision'],
      [{ decision: 'exclude', note: 'x'.repeat(501) }, 'note'],
      [{ decision: 'exclude', extra: 1 }, 'extra'],
    ] as const) {
      const r = await decide(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json()).toMatchObject({ field });
    }
    expect((await decide({ decision: 'exclude' }, 9_007_199_254_740_990)).statusCode).toBe(404);
    expect((await h.admin('POST', '/integrity/players/0/decision', h.session, { body: { decision: 'exclude' } })).statusCode).toBe(400);
    expect(await audits(`user:${id}`)).toEqual([]);
    expect((await status(id)).airdropReview.state).toBe('review');

    const excluded = await decide({ decision: 'exclude', note: 'scripted client' });
    expect(excluded.statusCode, excluded.body).toBe(200);
    expect(excluded.json()).toMatchObject({ userId: String(id), state: 'excluded', decision: 'excluded', decisionNote: 'scripted client' });
    expect((await status(id)).airdropReview).toEqual({ state: 'excluded', reasons: ['apiClient'] });
    // The job never overrides a decision.
    await tap(id, 5, null);
    await runJob();
    expect((await status(id)).airdropReview.state).toBe('excluded');

    const overturned = await appeal({ outcome: 'overturned', note: 'a player’s own tool, explained in support' });
    expect(overturned.json()).toMatchObject({ state: 'clear', appeal: 'overturned' });
    expect((await status(id)).airdropReview).toEqual({ state: 'clear', reasons: [] });
    // Cleared, there is nothing left to appeal: 409, nothing written.
    const nothing = await appeal({ outcome: 'upheld' });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json()).toMatchObject({ code: 'nothingToAppeal', field: 'userId' });
    expect((await appeal({ outcome: 'sideways' })).json()).toMatchObject({ field: 'outcome' });

    // A reason the operator did not see when clearing reopens the review.
    for (let i = 0; i < 6; i++) await tap(await fresh(), 5, deviceOf(400));
    await tap(id, 5, deviceOf(400));
    await runJob();
    expect((await status(id)).airdropReview.state).toBe('review');
    expect((await appeal({ outcome: 'upheld' })).json()).toMatchObject({ state: 'excluded', appeal: 'upheld' });

    expect(await audits(`user:${id}`)).toEqual([
      { action: 'integrity.exclude', admin_id: String(adminId) },
      { action: 'integrity.appeal', admin_id: String(adminId) },
      { action: 'integrity.appeal', admin_id: String(adminId) },
    ]);
    const listed = await h.admin('GET', '/integrity/flags?state=excluded', h.session);
    const row = listed.json<{ items: { userId: string; evidence: { code: string; text: string }[] }[] }>().items.find((f) => f.userId === String(id));
    // Since it sent the mini-app's device id, apiClient no longer holds; the shared device does.
    expect(row?.evidence.map((e) => e.code)).toEqual(['sharedDevice']);
    expect(row?.evidence[0]!.text).toBe('The device this account plays on is used by 7 accounts.');
  });

  it('writes no decision when its audit row fails', async () => {
    const id = await h.newPlayer();
    h.session = await h.signIn();
    await withAuditRefused(h.db, async () => {
      expect((await h.admin('POST', `/integrity/players/${id}/decision`, h.session, { body: { decision: 'exclude' } })).statusCode).toBe(500);
    });
    expect((await status(id)).airdropReview.state).toBe('clear');
    expect((await h.db.query('SELECT decision FROM integrity_players WHERE user_id = $1 AND decision IS NOT NULL', [id])).rows).toEqual([]);
  });
});
