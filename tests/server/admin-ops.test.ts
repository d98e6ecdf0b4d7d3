import { describe, expect, it } from 'vitest';
import type { AdminBroadcast, Dashboard, ForecastSettlement } from '../../engine/wire/admin-types.ts';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { claimNext, recordOutcome } from '../../server/bot/broadcast-store.ts';
import { refreshConsoleAggregates, foldLagMs } from '../../server/console/console-aggregates.ts';
import { openSignedInAdmin, operatorKey } from './admin-harness.ts';
import { ledgerMatchesBalances } from './db-helpers.ts';
import { backends, startMs, openForSuite } from './harness.ts';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe.each(backends)('console: forecast, broadcasts, dashboard (%s)', (backend) => {
  const h = openForSuite(() => openSignedInAdmin(backend));
  const status = async (id: number, languageCode?: string) =>
    (await h.call('GET', '', languageCode ? { id, first_name: 'L', username: `l${id}`, language_code: languageCode } : id)).json<UserStatus>();
  const settleByKey = (launchDay: unknown, key = operatorKey) =>
    h.app.inject({ method: 'POST', url: `${apiPrefix}/public/settle-forecast`, headers: { 'x-api-key': key }, payload: { launchDay } });

  it('settles the forecast once: each right guess gets 7,777 MONEY and its referrer 5 %; again pays nothing', async () => {
    const referrer = h.newUserId();
    const right = h.newUserId();
    const wrong = h.newUserId();
    const late = h.newUserId();
    const ref = await status(referrer);
    await status(right);
    await status(wrong);
    await h.call('POST', '/referral', right, { query: { refcode: ref.refcode } });
    // Both guess on startMs's day: "in 10 days" is right for a launch 10 days later.
    expect((await h.call('POST', '/set-predict-wallet-coming', right, { query: { days: '10' } })).statusCode).toBe(200);
    await h.call('POST', '/set-predict-wallet-coming', wrong, { query: { days: '11' } });
    h.clock.advance(5 * 86_400_000);
    await status(late);
    await h.call('POST', '/set-predict-wallet-coming', late, { query: { days: '5' } });
    const launch = day(startMs + 10 * 86_400_000);
    expect((await settleByKey(launch)).statusCode, 'a future day tells players the answer').toBe(400);
    h.clock.advance(6 * 86_400_000);
    // Eleven days later the morning's console session has long expired.
    h.session = await h.signIn();

    expect((await settleByKey(launch, 'wrong')).statusCode).toBe(401);
    const bad = await settleByKey('2026-02-30');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'launchDay' });
    const first = await settleByKey(launch);
    expect(first.statusCode).toBe(200);
    expect(first.json<ForecastSettlement>()).toMatchObject({ launchDay: launch, paid: 2, paidTotal: 2 });
    expect((await status(right)).totalMoney).toBe(String(economy.forecastPrizeMoney));
    expect((await status(late)).totalMoney).toBe(String(economy.forecastPrizeMoney));
    expect((await status(wrong)).totalMoney).toBe('0');
    expect((await status(referrer)).totalMoneyRef).toBe('388.85');

    // The console runs the same action: nothing more is paid; another day is refused.
    const again = await h.admin('POST', '/forecast/settle', h.session, { body: { launchDay: launch } });
    expect(again.json<ForecastSettlement>()).toMatchObject({ paid: 0, paidTotal: 2 });
    const other = await h.admin('POST', '/forecast/settle', h.session, { body: { launchDay: day(startMs) } });
    expect(other.statusCode).toBe(409);
    expect((await status(right)).totalMoney).toBe(String(economy.forecastPrizeMoney));
    expect(await ledgerMatchesBalances(h.db, [referrer, right, wrong, late])).toBe(true);
    const shown = (await h.admin('GET', '/forecast', h.session)).json<{ settlement: { launchDay: string; paidTotal: number } }>();
    expect(shown.settlement).toMatchObject({ launchDay: launch, paidTotal: 2 });
  });

  it('sends a broadcast to a segment, shows sent / failed / blocked / pending, and cancels the rest', async () => {
    const fr = [h.newUserId(), h.newUserId(), h.newUserId()];
    for (const id of fr) await status(id, 'fr');
    await status(h.newUserId(), 'en');
    const badSegment = await h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'language', languageCode: 'french!' } } });
    expect(badSegment.json()).toMatchObject({ field: 'segment.languageCode' });
    const badBtn = await h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', btns: [{ btnType: 'url', btnText: 'Go', btnLink: 'javascript:1' }] } });
    expect(badBtn.json()).toMatchObject({ field: 'btns[0].btnLink' });
    const q = await h.admin('POST', '/broadcasts', h.session, {
      body: { message: 'Bonjour', btns: [{ btnType: 'url', btnText: 'Play', btnLink: 'https://t.me/bot' }], segment: { kind: 'language', languageCode: 'fr' } },
    });
    expect(q.statusCode).toBe(202);
    const { broadcastId, total } = q.json<{ broadcastId: number; total: number }>();
    expect(total).toBe(3);
    const a = (await claimNext(h.db, 'w', h.clock.now()))!;
    await recordOutcome(h.db, a, 'w', { kind: 'failed', error: '403 Forbidden: bot was blocked by the user' }, h.clock.now());
    const b = (await claimNext(h.db, 'w', h.clock.now()))!;
    await recordOutcome(h.db, b, 'w', { kind: 'sent', messageId: 1 }, h.clock.now());
    const mid = (await h.admin('GET', `/broadcasts/${broadcastId}`, h.session)).json<AdminBroadcast>();
    expect(mid).toMatchObject({ total: 3, sent: 1, blocked: 1, failed: 0, pending: 1, segment: { kind: 'language', languageCode: 'fr' }, finishedAtMs: null });
    expect((await h.admin('POST', `/broadcasts/${broadcastId}/cancel`, h.session)).json()).toMatchObject({ cancelled: 1 });
    expect(await claimNext(h.db, 'w', h.clock.now())).toBeNull();
    const done = (await h.admin('GET', `/broadcasts/${broadcastId}`, h.session)).json<AdminBroadcast>();
    expect(done).toMatchObject({ pending: 0, cancelled: 1 });
    expect(done.finishedAtMs).not.toBeNull();
    expect((await h.admin('POST', `/broadcasts/${broadcastId}/cancel`, h.session)).statusCode).toBe(409);
    // A test list and the active segment.
    const t = await h.admin('POST', '/broadcasts', h.session, { body: { message: 'Test', segment: { kind: 'test', userIds: [String(fr[0])] } } });
    expect(t.json()).toMatchObject({ total: 1 });
    const act = await h.admin('POST', '/broadcasts', h.session, { body: { message: 'Active', segment: { kind: 'active', days: 0 } } });
    expect(act.json()).toMatchObject({ field: 'segment.days' });
    const list = (await h.admin('GET', '/broadcasts', h.session)).json<{ items: AdminBroadcast[] }>().items;
    expect(list.map((x) => x.message)).toEqual(expect.arrayContaining(['Bonjour', 'Test']));
  });

  it('keeps the dashboard from the job: players, new, active, taps (counted once), referral funnel', async () => {
    const ids = [h.newUserId(), h.newUserId()];
    for (const id of ids) await status(id);
    await h.call('POST', '/click', ids[0]!, { body: { click: 5, batchId: 'd1' } });
    h.clock.advance(foldLagMs + 1);
    await refreshConsoleAggregates(h.db, h.clock.now());
    await refreshConsoleAggregates(h.db, h.clock.now());
    const d = (await h.admin('GET', '/dashboard', h.session)).json<Dashboard>();
    const today = d.days.at(-1)!;
    expect(today.day).toBe(day(h.clock.now()));
    expect(today.activePlayers).toBeGreaterThanOrEqual(2);
    expect(today.newPlayers).toBeGreaterThanOrEqual(2);
    expect(today.taps).toBe(5);
    const total = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users');
    expect(today.totalPlayers).toBe(total.rows[0]!.n);
    expect(d.funnel.invited).toBeGreaterThanOrEqual(1);
    expect(d.updatedAtMs).toBe(h.clock.now());
  });

  it('takes the airdrop snapshot from the console: the operator API sees the same round, it is audited once, bad input changes nothing', async () => {
    const id = h.newUserId();
    await status(id);
    // An eligible player (docs/rules.md §14): MONEY above 0 and a linked wallet (linking itself is tested in wallet-link.test.ts).
    await h.db.query("UPDATE users SET total_money = 12.5 WHERE id = $1", [id]);
    await h.db.query("INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms) VALUES ($1, $2, $3, 'v4R2', $4)", [id, `0:${'ab'.repeat(32)}`, 'cd'.repeat(32), h.clock.now()]);
    const startFrom = Math.floor(h.clock.now() / 1000);
    const bad = await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 0, startFrom, expireAt: startFrom + 60 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ field?: string }>().field).toBe('round');
    const backwards = await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 7, startFrom, expireAt: startFrom } });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json<{ field?: string }>().field).toBe('expireAt');
    const closed = await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 7, startFrom: startFrom - 86_400, expireAt: startFrom } });
    expect(closed.statusCode).toBe(400);
    expect(closed.json<{ field?: string }>().field).toBe('expireAt');
    expect((await h.admin('GET', '/airdrop', h.session)).json<{ latest: unknown }>().latest).toBeNull();
    expect((await h.db.query('SELECT 1 FROM airdrop_rounds WHERE round = 7')).rows).toHaveLength(0);

    const taken = await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 7, startFrom, expireAt: startFrom + 86_400 } });
    expect(taken.statusCode, taken.body).toBe(200);
    const round = taken.json<{ round: number; created: boolean; merkleRoot: string | null }>();
    expect(round).toMatchObject({ round: 7, created: true });
    const viaKey = await h.app.inject({ method: 'GET', url: `${apiPrefix}/public/airdrop/rounds/7`, headers: { 'x-api-key': operatorKey } });
    expect(viaKey.json<{ merkleRoot: string | null }>().merkleRoot).toBe(round.merkleRoot);
    const again = await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 7, startFrom, expireAt: startFrom + 86_400 } });
    expect(again.json<{ created: boolean; merkleRoot: string | null }>()).toMatchObject({ created: false, merkleRoot: round.merkleRoot });
    const other = await h.admin('POST', '/airdrop/snapshot', h.session, { body: { round: 7, startFrom, expireAt: startFrom + 60 } });
    expect(other.statusCode).toBe(409);
    const audits = await h.db.query<{ n: number }>("SELECT count(*)::int AS n FROM admin_audit WHERE action = 'airdrop.snapshot' AND target = 'round:7'");
    expect(audits.rows[0]!.n).toBe(1);
    expect((await h.admin('GET', '/airdrop', h.session)).json<{ latest: { round: number } }>().latest.round).toBe(7);
  });
});
