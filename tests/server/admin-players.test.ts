import { describe, expect, it } from 'vitest';
import type { AuditEntry, CheatSignal, LedgerEntry, Page, PlayerDetail, PlayerSummary, AdminTask } from '../../engine/wire/admin-types.ts';
import type { Task, UserStatus } from '../../engine/wire/api-types.ts';
import { frozenMessage } from '../../server/players/authenticate.ts';
import { seedTasks } from '../../server/tasks/tasks.ts';
import { refreshConsoleAggregates, foldLagMs } from '../../server/console/console-aggregates.ts';
import { openSignedInAdmin } from './admin-harness.ts';
import { harnessOn, backends, openForSuite } from './harness.ts';

describe.each(backends)('console: players, freeze, audit, tasks (%s)', (backend) => {
  const h = openForSuite(() => openSignedInAdmin(backend));
  const status = async (id: number) => (await h.call('GET', '', id)).json<UserStatus>();

  it('finds a player by id, refcode and username prefix, and pages the ledger by keyset', async () => {
    const id = h.newUserId();
    const st = await status(id);
    for (const q of [String(id), st.refcode, `@user${id}`.slice(0, 9)]) {
      const r = await h.admin('GET', `/players?q=${encodeURIComponent(q)}`, h.session);
      expect(r.statusCode).toBe(200);
      expect(r.json<{ items: PlayerSummary[] }>().items.map((p) => p.id), q).toContain(String(id));
    }
    for (let i = 0; i < 30; i++) {
      await h.call('POST', '/click', id, { body: { click: 1, batchId: `b${i}` } });
      h.clock.advance(1_000);
    }
    const first = (await h.admin('GET', `/players/${id}/ledger`, h.session)).json<Page<LedgerEntry>>();
    expect(first.items).toHaveLength(25);
    expect(first.next).not.toBeNull();
    const second = (await h.admin('GET', `/players/${id}/ledger?before=${first.next}`, h.session)).json<Page<LedgerEntry>>();
    expect(second.items.length).toBeGreaterThan(0);
    expect(Number(second.items[0]!.id)).toBeLessThan(Number(first.items.at(-1)!.id));
    const detail = (await h.admin('GET', `/players/${id}`, h.session)).json<PlayerDetail>();
    expect(detail).toMatchObject({ id: String(id), refcode: st.refcode, frozenAt: null, totalClick: 30 });
    expect((await h.admin('GET', '/players/999', h.session)).statusCode).toBe(404);
  });

  it("shows a player's last activity: a tap or a claim after the day's first visit moves it", async () => {
    const id = h.newUserId();
    const st = await status(id);
    const seen = async () => {
      const detail = (await h.admin('GET', `/players/${id}`, h.session)).json<PlayerDetail>();
      const found = (await h.admin('GET', `/players?q=${st.refcode}`, h.session)).json<{ items: PlayerSummary[] }>().items[0];
      expect(found?.lastActiveMs).toBe(detail.lastActiveMs);
      return detail.lastActiveMs;
    };
    const joined = await seen();
    expect(joined).toBe(h.clock.now());
    h.clock.advance(10 * 60_000);
    expect((await h.call('POST', '/click', id, { body: { click: 3, batchId: 'la1' } })).statusCode).toBe(200);
    const lastTap = Number((await h.admin('GET', `/players/${id}/ledger`, h.session)).json<Page<LedgerEntry>>().items[0]!.createdAtMs);
    expect(lastTap).toBe(joined! + 10 * 60_000);
    expect(await seen()).toBe(lastTap);
    h.clock.advance(20 * 60_000);
    expect((await h.call('POST', '/claim', id)).statusCode).toBe(200);
    expect(await seen()).toBe(h.clock.now());
  });

  it('lists the newest players without a term (or with a blank one); the search matches a username\'s start only', async () => {
    const ids = [h.newUserId(), h.newUserId(), h.newUserId()];
    for (const id of ids) {
      await h.call('GET', '', { id, first_name: 'N', username: `newest${id}` });
      h.clock.advance(1_000);
    }
    for (const path of ['/players', '/players?q=', '/players?q=%20%20']) {
      const r = await h.admin('GET', path, h.session);
      expect(r.statusCode, path).toBe(200);
      const items = r.json<{ items: PlayerSummary[] }>().items;
      expect(items.length, path).toBeLessThanOrEqual(20);
      expect(items.slice(0, 3).map((p) => p.id), path).toEqual(ids.map(String).reverse());
    }
    const last = ids.at(-1)!;
    const found = async (q: string) => (await h.admin('GET', `/players?q=${encodeURIComponent(q)}`, h.session)).json<{ items: PlayerSummary[] }>().items.map((p) => p.id);
    expect(await found(`newest${last}`.slice(0, 8))).toContain(String(last));
    expect(await found(String(last).slice(3))).not.toContain(String(last));
    expect((await h.admin('GET', `/players?q=${'x'.repeat(65)}`, h.session)).statusCode).toBe(400);
  });

  it('freezes a player: clicks, claims and purchases are refused with a clear message, the status says so; unfreeze restores', async () => {
    const id = h.newUserId();
    await status(id);
    const r = await h.admin('POST', `/players/${id}/freeze`, h.session, { body: { frozen: true, reason: 'bot-like taps' } });
    expect(r.statusCode).toBe(200);
    for (const [path, body] of [['/click', { click: 1, batchId: 'f1' }], ['/claim', undefined], ['/claim-welcome-rw', undefined], ['/update-level', { levelKey: 1 }]] as const) {
      const refused = await h.call('POST', path, id, body ? { body } : {});
      expect(refused.statusCode, path).toBe(423);
      expect(refused.json()).toMatchObject({ message: frozenMessage });
    }
    expect((await status(id)).isFrozen).toBe(true);
    // Another process sees the freeze at its next refresh of the frozen set.
    const other = await harnessOn(h.db, h.config, h.clock, undefined, false);
    try {
      expect((await other.call('POST', '/click', id, { body: { click: 1, batchId: 'f2' } })).statusCode).toBe(423);
    } finally {
      await other.close();
    }
    await h.admin('POST', `/players/${id}/freeze`, h.session, { body: { frozen: false } });
    expect((await h.call('POST', '/click', id, { body: { click: 1, batchId: 'f3' } })).statusCode).toBe(200);
    expect((await status(id)).isFrozen).toBeUndefined();
    const audit = (await h.admin('GET', '/audit?action=player.freeze', h.session)).json<Page<AuditEntry>>();
    expect(audit.items[0]).toMatchObject({ target: `player:${id}`, before: { frozenAt: null }, after: { reason: 'bot-like taps' } });
    expect(audit.items[0]!.adminId).toBe(String(h.session.session.adminId));
  });

  it('keeps the audit log append-only in the database', async () => {
    await expect(h.db.query('UPDATE admin_audit SET action = $1', ['x'])).rejects.toThrow(/append-only/);
    await expect(h.db.query('DELETE FROM admin_audit')).rejects.toThrow(/append-only/);
    await expect(h.db.query('TRUNCATE admin_audit')).rejects.toThrow(/append-only/);
  });

  it('lists players who keep getting taps refused, sortable, from the job', async () => {
    const cheat = h.newUserId();
    await status(cheat);
    // 400 taps at once: the human-rate allowance refuses most.
    for (let i = 0; i < 3; i++) await h.call('POST', '/click', cheat, { body: { click: 400, batchId: `c${i}` } });
    h.clock.advance(foldLagMs + 1_000);
    await refreshConsoleAggregates(h.db, h.clock.now());
    await refreshConsoleAggregates(h.db, h.clock.now());
    for (const sort of ['clipped', 'refused']) {
      const list = (await h.admin('GET', `/cheats?sort=${sort}`, h.session)).json<{ items: CheatSignal[] }>().items;
      expect(list[0]).toMatchObject({ userId: String(cheat), clippedBatches: 3 });
      expect(list[0]!.refusedTaps).toBeGreaterThan(900);
    }
    expect((await h.admin('GET', '/cheats?sort=x', h.session)).statusCode).toBe(400);
  });

  it('creates, edits, disables and reorders tasks; players see it at once; bad input gets field errors', async () => {
    const bad = await h.admin('POST', '/tasks', h.session, { body: { type: 'SOCIALX', title: '', reward: '-1', link: 'javascript:x' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ fields: Record<string, string> }>().fields).sort()).toEqual(['link', 'reward', 'title', 'type']);
    // A value of the wrong type is refused by the schema, before the form's rules (docs/admin.md "Input").
    const mistyped = await h.admin('POST', '/tasks', h.session, { body: { type: 'SOCIAL', title: 'T', reward: '1', isDaily: 'yes' } });
    expect(mistyped.statusCode).toBe(400);
    expect(mistyped.json()).toMatchObject({ field: 'isDaily' });
    const linkBad = await h.admin('POST', '/tasks', h.session, { body: { type: 'INVITE', handleType: 'REF', title: 'Invite', reward: '5', link: 'https://x' } });
    expect(linkBad.json<{ fields: Record<string, string> }>().fields).toHaveProperty('link');
    const created = await h.admin('POST', '/tasks', h.session, {
      body: { type: 'SOCIAL', handleType: null, title: 'Like our post', image: 'task-x', desc: 'Like it', link: 'https://x.com/money/1', reward: '12.5', isDaily: true, needsCaptcha: true },
    });
    expect(created.statusCode).toBe(200);
    const task = created.json<AdminTask>();
    // The form's fields: the id is in the path, the place is the reorder's (both refused in a body).
    const { id: _id, sortOrder: _sortOrder, ...form } = task;
    const player = h.newUserId();
    const seen = async () => (await h.call('GET', '/tasks', player, { query: { type: 'SOCIAL' } })).json<Task[]>();
    expect((await seen()).find((t) => t.id === task.id)).toMatchObject({ title: 'Like our post', reward: '12.5', isDaily: true, needsCaptcha: true });
    await h.admin('PUT', `/tasks/${task.id}`, h.session, { body: { ...form, title: 'Like our new post' } });
    expect((await seen()).find((t) => t.id === task.id)?.title).toBe('Like our new post');
    const order = (await h.admin('POST', '/tasks/reorder', h.session, { body: { ids: [task.id] } })).json<{ items: AdminTask[] }>().items;
    expect(order[0]!.id).toBe(task.id);
    expect((await seen())[0]!.id).toBe(task.id);
    // A console edit of a seeded task survives the next start's seeding.
    await h.admin('PUT', '/tasks/1', h.session, { body: { type: 'SOCIAL', title: 'Follow us, edited', link: 'https://x.com/m', reward: '100' } });
    await seedTasks(h.db);
    expect((await h.admin('GET', '/tasks', h.session)).json<{ items: AdminTask[] }>().items.find((t) => t.id === 1)?.title).toBe('Follow us, edited');
    await h.admin('PUT', `/tasks/${task.id}`, h.session, { body: { ...form, active: false } });
    expect((await seen()).find((t) => t.id === task.id)).toBeUndefined();
    const actions = (await h.admin('GET', '/audit', h.session)).json<Page<AuditEntry>>().items.map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['task.create', 'task.update', 'task.reorder', 'task.disable']));
    expect((await h.admin('PUT', '/tasks/99999', h.session, { body: form })).statusCode).toBe(404);
  });

  it('keeps a task title per language: English required, the others optional; bad ones named and nothing changes', async () => {
    const form = { type: 'SOCIAL', handleType: null, title: 'Follow us', image: 'task-x', desc: '', link: 'https://x.com/m', reward: '10' };
    const created = (await h.admin('POST', '/tasks', h.session, { body: { ...form, titles: { fa: ' ما را دنبال کنید ', ru: '', es: 'Síguenos' } } })).json<AdminTask>();
    // A blank title is dropped: that language shows the English one.
    expect(created.titles).toEqual({ fa: 'ما را دنبال کنید', es: 'Síguenos' });
    const player = h.newUserId();
    const listed = async () => (await h.call('GET', '/tasks', player, { query: { type: 'SOCIAL' } })).json<Task[]>().find((t) => t.id === created.id);
    expect(await listed()).toMatchObject({ title: 'Follow us', titles: { fa: 'ما را دنبال کنید', es: 'Síguenos' } });

    const { id: _id, sortOrder: _sortOrder, ...edit } = created;
    for (const [titles, field] of [
      [{ de: 'Folge uns' }, 'titles'],
      [{ en: 'Follow us' }, 'titles'],
      [{ fa: 'x'.repeat(101) }, 'titles.fa'],
    ] as const) {
      const refused = await h.admin('PUT', `/tasks/${created.id}`, h.session, { body: { ...edit, titles } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'taskFormInvalid', field });
    }
    const wrongType = await h.admin('PUT', `/tasks/${created.id}`, h.session, { body: { ...edit, titles: { fa: 3 } } });
    expect(wrongType.statusCode).toBe(400);
    expect(await listed()).toMatchObject({ titles: { fa: 'ما را دنبال کنید', es: 'Síguenos' } });
    // An edit replaces the titles: the console sends the whole form.
    await h.admin('PUT', `/tasks/${created.id}`, h.session, { body: { ...edit, titles: { fa: 'دنبال کنید' } } });
    expect((await listed())?.titles).toEqual({ fa: 'دنبال کنید' });
  });
});
