import { describe, expect, it } from 'vitest';
import { apiPrefix, type UserStatus } from '../../engine/wire/api-types.ts';
import { signInitData } from '../../server/players/init-data.ts';
import { listMigrations, migrate } from '../../server/core/db/migrate.ts';
import { backends, openHarness, openForSuite } from './harness.ts';

describe.each(backends)('auth and status (%s)', (backend) => {
  const h = openForSuite(() => openHarness(backend));

  const get = (authorization?: string) =>
    h.app.inject({ method: 'GET', url: apiPrefix, headers: authorization === undefined ? {} : { authorization } });

  it('creates the player on the first valid call, with a 6-character refcode and teleAge', async () => {
    const id = h.newUserId();
    const r = await get(`tma ${h.initData({ id, first_name: 'Ann', username: 'ann', is_premium: true })}`);
    expect(r.statusCode).toBe(200);
    const s = r.json<UserStatus>();
    expect(s.id).toBe(String(id));
    expect(s.refcode).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(s.teleAge).toBeGreaterThan(0);
    expect(s.isPremium).toBe(true);
    expect(s.availableEnergy).toBe(500);
    expect(s.serverTime).toBe(h.clock.now());
    // The second call finds the same player.
    const again = (await get(h.initData({ id, first_name: 'Ann', username: 'ann', is_premium: true }))).json<UserStatus>();
    expect(again.refcode).toBe(s.refcode);
  });

  it('accepts raw init data and `tma <raw>` alike', async () => {
    const id = h.newUserId();
    expect((await get(h.initData(id))).statusCode).toBe(200);
    expect((await get(`tma ${h.initData(id)}`)).statusCode).toBe(200);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['malformed', 'tma not-init-data'],
    ['garbage hash', 'tma user=%7B%22id%22%3A1%7D&auth_date=1&hash=zz'],
  ])('answers %s init data with a 401 JSON error', async (_name, header) => {
    const r = await get(header);
    expect(r.statusCode).toBe(401);
    expect(r.json()).toMatchObject({ error: 'Unauthorized', message: expect.any(String) });
  });

  it('refuses forged data (a changed field) and another bot’s data', async () => {
    const id = h.newUserId();
    const good = h.initData(id);
    const forged = good.replace(encodeURIComponent(`"id":${id}`), encodeURIComponent(`"id":${id + 1}`));
    expect(forged).not.toBe(good);
    expect((await get(forged)).statusCode).toBe(401);
    const foreign = signInitData('7000000002:AAotherBOTotherBOTotherBOT_xyz', { user: { id, first_name: 'X' } }, h.clock.now());
    expect((await get(foreign)).statusCode).toBe(401);
  });

  it('refuses init data older than INIT_DATA_MAX_AGE_S, even after a cached success', async () => {
    const id = h.newUserId();
    const raw = h.initData(id);
    expect((await get(raw)).statusCode).toBe(200);
    h.clock.advance((h.config.INIT_DATA_MAX_AGE_S + 1) * 1_000);
    const r = await get(raw);
    expect(r.statusCode).toBe(401);
    expect(r.json().message).toMatch(/expired/);
  });

  it('gives distinct refcodes to many players', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 20; i++) codes.add((await get(h.initData(h.newUserId()))).json<UserStatus>().refcode);
    expect(codes.size).toBe(20);
  });

  it('records every migration once, in order; applying again changes nothing', async () => {
    const files = listMigrations();
    expect(files.map((m) => m.version)).toEqual([...files.map((m) => m.version)].sort((a, b) => a - b));
    const applied = await h.db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(applied.rows.map((r) => r.version)).toEqual(files.map((m) => m.version));
    expect(await migrate(h.db)).toEqual([]);
  });
});
