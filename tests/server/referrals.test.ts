import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FriendEntry, FriendsPage, LeaderboardEntry, Page, PublicStats, UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { runChannelChecks } from '../../server/referrals/channel-rule.ts';
import { startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { isChannelMember } from '../../server/tasks/outside-services.ts';
import { refreshStatsCache } from '../../server/leaderboard/stats-cache.ts';
import { applyPendingRanks } from '../../server/leaderboard/rank-view.ts';
import { ledgerMatchesBalances, setBalances } from './db-helpers.ts';
import { backends, botToken, openHarness, type Harness } from './harness.ts';

describe.each(backends)('referrals, lists and public stats (%s)', (backend) => {
  let h: Harness;
  let tg: FakeTelegram;
  beforeAll(async () => {
    h = await openHarness(backend);
    tg = await startFakeTelegram(botToken);
  });
  afterAll(async () => {
    await h?.close();
    await tg?.close();
  });
  /** The membership job of the invite rule, asking the fake Bot API (channel @money_channel). */
  const channelJob = () => runChannelChecks(h.db, (id) => isChannelMember({ ...h.config, BOT_API_ROOT: tg.apiRoot, OUTSIDE_TIMEOUT_MS: 2_000 }, id), h.clock.now(), 600_000);

  const status = async (id: number, premium = false) =>
    (await h.call('GET', '', premium ? { id, first_name: 'P', username: `p${id}`, is_premium: true } : id)).json<UserStatus>();
  const refer = (id: number, refcode: string, premium = false) =>
    h.call('POST', '/referral', premium ? { id, first_name: 'P', username: `p${id}`, is_premium: true } : id, { query: { refcode } });
  const click = (id: number, n: number, batchId: string) => h.call('POST', '/click', id, { body: { click: n, batchId } });

  it('registers a referral once; the +3 bonus stays pending until the friend reaches $100 and joins the channel', async () => {
    const a = h.newUserId();
    const b = h.newUserId();
    const sa = await status(a);
    await status(b);
    const r = await refer(b, sa.refcode);
    expect(r.statusCode).toBe(200);
    expect((await status(a)).inviteCnt).toBe(1);
    expect((await status(a)).totalMoney).toBe('0');
    const friends = (await h.call('GET', '/get-ref-users', a)).json<FriendsPage>();
    expect(friends.total).toBe(1);
    expect(friends.pending).toBe(1);
    // Clicks take the friend over $100: both sides get the bonus, once.
    await click(b, 40, 'x1');
    h.clock.advance(3_000);
    await click(b, 60, 'x2');
    h.clock.advance(3_000);
    await click(b, 10, 'x3');
    // $100 clicked, but not in the channel: still pending, and the Invite list says what is missing.
    expect((await channelJob()).checked).toBe(1);
    expect((await status(b)).totalMoney).toBe('0');
    const waiting = (await h.call('GET', '/get-ref-users', a)).json<FriendsPage>();
    expect(waiting).toMatchObject({ pending: 1, items: [{ waitingFor: ['channel'] }] });
    // Joined: not checked again before the recheck time, unless the friend acts (a claim).
    tg.settings.members.set(b, 'member');
    expect((await channelJob()).checked).toBe(0);
    await h.call('POST', '/claim-task', b, { query: { task_id: '1' }, body: { taskId: 1 } });
    expect(await channelJob()).toMatchObject({ checked: 1, released: 1 });
    expect(await channelJob()).toMatchObject({ checked: 0, released: 0 });
    expect((await status(b)).totalMoney).toBe(String(economy.inviteBonusMoney + 100));
    const sa2 = await status(a);
    expect(sa2.totalMoney).toBe(String(economy.inviteBonusMoney + 5));
    expect(sa2.totalRef).toBe(String(economy.inviteBonusMoney));
    expect((await h.call('GET', '/get-ref-users', a)).json()).toMatchObject({ pending: 0, items: [{ waitingFor: [] }] });
    const again = await refer(b, sa.refcode);
    expect(again.statusCode).toBe(409);
    expect(await ledgerMatchesBalances(h.db, [a, b])).toBe(true);
  });

  it('keeps Total Bonus (invite bonuses + 5% shares) and each friend’s "+X" (what they earned the referrer) as credits happen', async () => {
    const a = h.newUserId();
    const [b, c] = [h.newUserId(), h.newUserId()];
    const sa = await status(a);
    for (const f of [b, c]) {
      await status(f);
      await refer(f, sa.refcode);
    }
    await setBalances(h.db, c, { totalEarn: '99' });
    await click(c, 5, 'c1');
    tg.settings.members.set(c, 'member');
    expect(await channelJob()).toMatchObject({ released: 1 });
    // c is past $100 and in the channel: +3 to a; then c's Easter egg pays a 5%; b stays pending and earns a nothing.
    await h.call('POST', '/claim-easter-egg-rw', c);
    await h.call('POST', '/claim-easter-egg-rw', b);
    const share = (economy.easterEggRewardMoney * economy.referralSharePercent) / 100;
    const s = await status(a);
    expect(s.totalRef).toBe(String(economy.inviteBonusMoney));
    expect(Number(s.totalMoneyRef)).toBe(2 * share);
    const friends = (await h.call('GET', '/get-ref-users', a)).json<FriendsPage>();
    expect(friends.pending).toBe(1);
    const byName = Object.fromEntries(friends.items.map((f) => [f.teleUsername, f]));
    expect(Number(byName[`user${c}`]!.earned)).toBe(economy.inviteBonusMoney + share);
    expect(Number(byName[`user${b}`]!.earned)).toBe(share);
    // The rows' "+X" add up to Total Bonus, which comes in the same answer (Invite shows both from it).
    expect(friends.items.reduce((t, f) => t + Number(f.earned), 0)).toBe(Number(s.totalRef) + Number(s.totalMoneyRef));
    expect(friends.totalBonus).toBe(String(Number(s.totalRef) + Number(s.totalMoneyRef)));
    expect(await ledgerMatchesBalances(h.db, [a, b, c])).toBe(true);
  });

  it('gives +49 for a Premium friend who already has $100, at the first membership check', async () => {
    const a = h.newUserId();
    const b = h.newUserId();
    const sa = await status(a);
    await status(b, true);
    await setBalances(h.db, b, { totalEarn: '150' });
    tg.settings.members.set(b, 'member');
    await refer(b, sa.refcode, true);
    expect((await h.call('GET', '/get-ref-users', a)).json().items).toEqual([expect.objectContaining({ waitingFor: ['channel'] })]);
    expect(await channelJob()).toMatchObject({ released: 1 });
    expect((await status(a)).totalMoney).toBe(String(economy.inviteBonusPremiumMoney));
    expect((await status(b, true)).totalMoney).toBe(String(economy.inviteBonusPremiumMoney));
  });

  it('pays the referrer 5 % of the friend’s MONEY claims as totalMoneyRef', async () => {
    const a = h.newUserId();
    const b = h.newUserId();
    const sa = await status(a);
    await status(b);
    await refer(b, sa.refcode);
    await h.call('POST', '/claim-easter-egg-rw', b);
    const s = await status(a);
    expect(s.totalMoneyRef).toBe(String((economy.easterEggRewardMoney * economy.referralSharePercent) / 100));
    expect(s.totalMoney).toBe(s.totalMoneyRef);
    expect(await ledgerMatchesBalances(h.db, [a, b])).toBe(true);
  });

  it('refuses self-referral, unknown codes, cycles and bad codes', async () => {
    const a = h.newUserId();
    const b = h.newUserId();
    const sa = await status(a);
    const sb = await status(b);
    expect((await refer(a, sa.refcode)).statusCode).toBe(400);
    const unknown = await refer(a, 'zzzzzz');
    expect([404, 400]).toContain(unknown.statusCode);
    expect((await refer(b, sa.refcode)).statusCode).toBe(200);
    const cycle = await refer(a, sb.refcode);
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toMatch(/cycle/);
    for (const bad of ['abc', 'abcdefg', 'ab$def']) expect((await refer(a, bad)).json().field).toBe('refcode');
    expect((await h.call('POST', '/referral', a)).json()).toMatchObject({ field: 'refcode', message: expect.stringMatching(/refcode/) });
    expect((await status(a)).inviteCnt).toBe(1);
  });

  it('enforces the friend limit of the referral level, and buying a level raises it', async () => {
    const a = h.newUserId();
    const sa = await status(a);
    await h.db.query('UPDATE users SET invite_cnt = $2 WHERE id = $1', [a, 10]);
    const b = h.newUserId();
    await status(b);
    const full = await refer(b, sa.refcode);
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toMatch(/friend limit/);
    // Level 2 costs 100 MONEY.
    expect((await h.call('POST', '/update-ref-level', a, { query: { level: '2' } })).json().message).toMatch(/Not enough MONEY/);
    await setBalances(h.db, a, { totalMoney: '150' });
    expect((await h.call('POST', '/update-ref-level', a, { query: { level: '3' } })).statusCode).toBe(400);
    const up = await h.call('POST', '/update-ref-level', a, { query: { level: '2' } });
    expect(up.statusCode).toBe(200);
    expect(up.json<UserStatus>()).toMatchObject({ refLevel: 2, totalMoney: '50' });
    expect((await refer(b, sa.refcode)).statusCode).toBe(200);
    expect((await h.call('POST', '/update-ref-level', a, { query: { level: 'x' } })).json().field).toBe('level');
    expect(await ledgerMatchesBalances(h.db, [a])).toBe(true);
  });

  it('refuses a level above the table', async () => {
    const a = h.newUserId();
    await status(a);
    await h.db.query('UPDATE users SET ref_level = 14 WHERE id = $1', [a]);
    const r = await h.call('POST', '/update-ref-level', a, { query: { level: '14' } });
    expect(r.json().message).toMatch(/maximum/);
  });

  it('pages friends 10 at a time', async () => {
    const a = h.newUserId();
    const sa = await status(a);
    await h.db.query('UPDATE users SET ref_level = 3 WHERE id = $1', [a]);
    for (let i = 0; i < 12; i++) {
      const f = h.newUserId();
      await status(f);
      h.clock.advance(1);
      expect((await refer(f, sa.refcode)).statusCode).toBe(200);
    }
    const p1 = (await h.call('GET', '/get-ref-users', a)).json<Page<FriendEntry>>();
    const p2 = (await h.call('GET', '/get-ref-users', a, { query: { page: '2' } })).json<Page<FriendEntry>>();
    expect(p1.items).toHaveLength(10);
    expect(p2.items).toHaveLength(2);
    expect(p1.total).toBe(12);
    expect((await h.call('GET', '/get-ref-users', a, { query: { page: '0' } })).statusCode).toBe(400);
  });

  it('gives the referral link with the refcode as start parameter', async () => {
    const a = h.newUserId();
    const sa = await status(a);
    const r = (await h.call('GET', '/get-my-refLink', a)).json<{ refLink: string }>();
    expect(r.refLink).toContain(`startapp=${sa.refcode}`);
    expect(r.refLink).toContain(h.config.BOT_USERNAME);
  });

  it('puts the player’s own entry first with their rank, then 10 a page by totalMoney', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 13; i++) {
      const id = h.newUserId();
      await status(id);
      await setBalances(h.db, id, { totalMoney: String(1_000_000_000 + i * 1000) });
      ids.push(id);
    }
    const me = ids[3]!;
    // Ranks come from the ranks job's view (docs/scaling.md); tests/server/rank-view.test.ts covers its upkeep.
    await applyPendingRanks(h.db, h.clock.now());
    const page = (await h.call('GET', '/leaderboard', me)).json<Page<LeaderboardEntry>>();
    expect(page.items).toHaveLength(11);
    expect(page.items[0]).toMatchObject({ id: String(me), rank: 10 });
    expect(page.items.slice(1).map((e) => e.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(page.items[1]!.id).toBe(String(ids[12]));
    const p2 = (await h.call('GET', '/leaderboard', me, { query: { page: '2' } })).json<Page<LeaderboardEntry>>();
    expect(p2.items[0]!.rank).toBe(10);
    expect(p2.items[1]!.rank).toBe(11);
  });

  it('serves public stats without auth, from the stats job’s counters (exact from the first request of a fresh install)', async () => {
    const first = await h.call('GET', '/public/stats', null);
    expect(first.statusCode).toBe(200);
    expect(first.json<PublicStats>().totalPaticipant).toBeGreaterThan(0);
    // Later players count from the job's next refresh, not per request.
    await status(h.newUserId());
    expect((await h.call('GET', '/public/stats', null)).json<PublicStats>()).toEqual(first.json());
    await refreshStatsCache(h.db, h.clock.now());
    // Each process keeps the row in memory for 5 s.
    h.clock.advance(5_000);
    const r = await h.call('GET', '/public/stats', null);
    expect(r.statusCode).toBe(200);
    const s = r.json<PublicStats>();
    const sums = await h.db.query<{ n: number; c: string; e: string }>('SELECT count(*)::int AS n, sum(total_click)::text AS c, sum(total_earn)::text AS e FROM users');
    expect(s.totalPaticipant).toBe(sums.rows[0]!.n);
    expect(s.totalClick).toBe(Number(sums.rows[0]!.c));
    expect(s.totalEarn).toBe(sums.rows[0]!.e);
  });

  it('refuses unauthenticated calls to every player route', async () => {
    for (const [m, p] of [['GET', '/get-ref-users'], ['GET', '/leaderboard'], ['GET', '/get-my-refLink'], ['POST', '/claim'], ['GET', '/tasks']] as const)
      expect((await h.call(m, p, null)).statusCode).toBe(401);
  });

  it('serves an OpenAPI document generated from the route schemas', async () => {
    const r = await h.call('GET', '/openapi.json', null);
    const doc = r.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    for (const p of ['/click', '/claim', '/update-level', '/referral', '/leaderboard', '/tasks', '/claim-task', '/public/stats'])
      expect(Object.keys(doc.paths)).toContain(`/money/api/v1/airdrop${p}`);
  });
});
