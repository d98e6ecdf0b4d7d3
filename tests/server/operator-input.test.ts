/**
 * The console and the operator API refuse bad input as strictly as the player API (docs/api.md
 * "Errors", docs/admin.md "Input"): an id, cursor or count beyond its column's range, a day
 * PostgreSQL cannot store, an unknown field or a mistyped one is a 4xx naming the field, and
 * changes nothing — no audit row, no queued broadcast, no task, freeze or settlement.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AdminTask } from '../../engine/wire/admin-types.ts';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { claimNext } from '../../server/bot/broadcast-store.ts';
import { openAdminHarness, operatorKey } from './admin-harness.ts';
import { backends, openForSuite } from './harness.ts';

const broadcastKey = 'broadcast-key-for-tests-0123456789';
const task = { type: 'SOCIAL', handleType: null, title: 'Follow us', image: 'task-x', desc: '', link: 'https://x.com/money', reward: '100', isDaily: false, needsCaptcha: false, active: true };

describe.each(backends)('console and operator API: bad input is a 4xx naming the field and changes nothing (%s)', (backend) => {
  const h = openForSuite(async () => {
    const opened = await openAdminHarness(backend, { BROADCAST_API_KEY: broadcastKey });
    return { ...opened, session: await opened.signIn() };
  });
  const byKey = (method: 'GET' | 'POST', path: string, payload?: object, key = operatorKey) =>
    h.app.inject({ method, url: `${apiPrefix}${path}`, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });

  /** Everything a console or operator write can change. */
  const footprint = async () =>
    (
      await h.db.query(
        `SELECT (SELECT count(*) FROM admin_audit)::int AS audit,
                (SELECT count(*) FROM broadcasts)::int AS broadcasts,
                (SELECT count(*) FROM broadcast_recipients WHERE status <> 'pending')::int AS touched_recipients,
                (SELECT count(*) FROM forecast_settlement)::int AS settlement,
                (SELECT count(*) FROM users WHERE frozen_at IS NOT NULL)::int AS frozen,
                (SELECT string_agg(t::text, ';' ORDER BY id) FROM tasks t) AS tasks`,
      )
    ).rows[0];

  /** The request is refused with `status`, naming `field`, and nothing changed. */
  const refused = async (request: () => Promise<LightMyRequestResponse>, field: string, status = 400) => {
    const before = await footprint();
    const r = await request();
    expect(r.statusCode, r.body).toBe(status);
    expect(r.json<{ field?: string }>().field, r.body).toBe(field);
    expect(await footprint(), `${field}: nothing changes`).toEqual(before);
  };

  const newTask = async (): Promise<AdminTask> => {
    const r = await h.admin('POST', '/tasks', h.session, { body: task });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<AdminTask>();
  };

  it('refuses ids and cursors beyond their columns: tasks.id INTEGER, ledger, audit and referral keys BIGINT', async () => {
    const t = await newTask();
    await refused(() => h.admin('PUT', '/tasks/2147483648', h.session, { body: task }), 'id');
    await refused(() => h.admin('PUT', '/tasks/0', h.session, { body: task }), 'id');
    await refused(() => h.admin('POST', '/tasks/reorder', h.session, { body: { ids: [t.id, 2_147_483_648] } }), 'ids[1]');

    const player = await h.newPlayer();
    for (const before of ['99999999999999999999', '9223372036854775808', '1:2', '-1', '0x10', '01']) {
      await refused(() => h.admin('GET', `/players/${player}/ledger?before=${before}`, h.session), 'before');
      await refused(() => h.admin('GET', `/audit?before=${before}`, h.session), 'before');
    }
    expect((await h.admin('GET', `/players/${player}/ledger?before=9223372036854775807`, h.session)).statusCode).toBe(200);
    expect((await h.admin('GET', '/audit?before=9223372036854775807', h.session)).statusCode).toBe(200);
    for (const before of ['99999999999999999999', '1', '1:', ':2', '1:2:3', '1:99999999999999999999', '9223372036854775808:1', '1.5:2']) {
      await refused(() => h.admin('GET', `/players/${player}/referrals?before=${encodeURIComponent(before)}`, h.session), 'before');
    }
    const page = await h.admin('GET', `/players/${player}/referrals?before=9223372036854775807:9223372036854775807`, h.session);
    expect(page.statusCode, page.body).toBe(200);
    await refused(() => h.admin('GET', `/players/${player}/ledger?after=1`, h.session), 'after');

    // A search term that cannot be a Telegram id is no id lookup: it finds nobody, never a 500.
    for (const q of ['9999999999999999999', '99999999999999999999']) {
      const found = await h.admin('GET', `/players?q=${q}`, h.session);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json<{ items: unknown[] }>().items).toEqual([]);
    }

    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'test', userIds: ['9999999999999999999'] } } }), 'segment.userIds');
    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'test', userIds: [String(player), 5] } } }), 'segment.userIds[1]');
    await refused(() => h.admin('GET', '/broadcasts/9223372036854775808', h.session), 'id', 400);
  });

  it('refuses a launch day PostgreSQL cannot store, through either door', async () => {
    for (const launchDay of ['0000-01-01', '0000-02-29']) {
      await refused(() => h.admin('POST', '/forecast/settle', h.session, { body: { launchDay } }), 'launchDay');
      await refused(() => byKey('POST', '/public/settle-forecast', { launchDay }), 'launchDay');
    }
    await refused(() => byKey('POST', '/public/settle-forecast', { launchDay: '10000-01-01' }), 'launchDay');
    await refused(() => byKey('POST', '/public/settle-forecast', { launchDay: 20260101 }), 'launchDay');
  });

  it('refuses unknown fields on every console and operator write, writing no audit row', async () => {
    const t = await newTask();
    const player = await h.newPlayer();
    await refused(() => h.admin('POST', '/tasks', h.session, { body: { ...task, extra: 1 } }), 'extra');
    await refused(() => h.admin('PUT', `/tasks/${t.id}`, h.session, { body: { ...task, title: 'Changed', sortOrder: 1 } }), 'sortOrder');
    await refused(() => h.admin('POST', '/tasks/reorder', h.session, { body: { ids: [t.id], extra: true } }), 'extra');
    await refused(() => h.admin('POST', `/players/${player}/freeze`, h.session, { body: { frozen: true, reason: 'x', extra: 1 } }), 'extra');
    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', extra: 1 } }), 'extra');
    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'all', extra: 1 } } }), 'segment.extra');
    await refused(
      () => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', btns: [{ btnType: 'url', btnText: 'Go', btnLink: 'https://t.me/x', extra: 1 }] } }),
      'btns[0].extra',
    );
    await refused(() => h.admin('POST', '/forecast/settle', h.session, { body: { launchDay: '2026-01-01', extra: 1 } }), 'extra');
    await refused(() => byKey('POST', '/public/settle-forecast', { launchDay: '2026-01-01', extra: 1 }), 'extra');
    await refused(() => byKey('POST', '/public/send-telemss', { message: 'Hi', extra: 1 }, broadcastKey), 'extra');
    await refused(() => byKey('POST', '/public/airdrop/snapshot', { round: 1, startFrom: 1, expireAt: 2, extra: 1 }), 'extra');
    await refused(() => byKey('POST', '/public/settle-forecast?launchDay=2026-01-01', { launchDay: '2026-01-01' }), 'launchDay');
    // A query parameter no route names, on a write and on a read of the console.
    await refused(() => h.admin('POST', '/tasks/reorder?extra=1', h.session, { body: { ids: [t.id] } }), 'extra');
    await refused(() => h.admin('GET', '/dashboard?extra=1', h.session), 'extra');
    await refused(() => h.admin('POST', '/logout', h.session, { body: { everywhere: true } }), 'everywhere');
  });

  it('types a segment strictly: days is a whole number, and a field of another kind is refused', async () => {
    await h.newPlayer();
    for (const days of ['30', true, [30], 1.5, 0, 366, null]) {
      await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'active', days } } }), 'segment.days');
    }
    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'active' } } }), 'segment.days');
    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'all', days: 30 } } }), 'segment.days');
    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: 'all' } }), 'segment');
    await refused(() => h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'language', languageCode: 7 } } }), 'segment.languageCode');
    const ok = await h.admin('POST', '/broadcasts', h.session, { body: { message: 'Hi', segment: { kind: 'active', days: 30 } } });
    expect(ok.statusCode, ok.body).toBe(202);
  });

  it('answers a second cancel of a broadcast whose sends are in flight with a 409 that writes nothing', async () => {
    const ids = [await h.newPlayer(), await h.newPlayer()];
    const q = await h.admin('POST', '/broadcasts', h.session, { body: { message: 'Twice', segment: { kind: 'test', userIds: ids.map(String) } } });
    expect(q.statusCode, q.body).toBe(202);
    const { broadcastId } = q.json<{ broadcastId: number }>();
    // One recipient is being sent right now, so the cancel leaves the broadcast unfinished (earlier
    // tests' broadcasts are claimed first: claims go in broadcast order, and end when none is pending).
    let claimed = await claimNext(h.db, 'w', h.clock.now());
    while (claimed !== null && claimed.broadcastId !== broadcastId) claimed = await claimNext(h.db, 'w', h.clock.now());
    expect(claimed?.broadcastId).toBe(broadcastId);
    const first = await h.admin('POST', `/broadcasts/${broadcastId}/cancel`, h.session);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ cancelled: 1 });
    await refused(() => h.admin('POST', `/broadcasts/${broadcastId}/cancel`, h.session), 'id', 409);
    const audits = await h.db.query<{ n: number }>("SELECT count(*)::int AS n FROM admin_audit WHERE action = 'broadcast.cancel' AND target = $1", [`broadcast:${broadcastId}`]);
    expect(audits.rows[0]!.n).toBe(1);
    await refused(() => h.admin('POST', `/broadcasts/${broadcastId}/cancel`, h.session, { body: { now: true } }), 'now');
  });
});
