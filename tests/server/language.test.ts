import { describe, expect, it } from 'vitest';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { openAdminHarness } from './admin-harness.ts';
import { backends, openForSuite } from './harness.ts';

/** The language chosen on the profile card (docs/i18n.md): POST /language, the status, the broadcast segment. */
describe.each(backends)('player language (%s)', (backend) => {
  const h = openForSuite(() => openAdminHarness(backend));
  const player = (id: number, languageCode: string) => ({ id, first_name: 'L', username: `l${id}`, language_code: languageCode });
  const status = async (id: number, languageCode = 'en') => (await h.call('GET', '', player(id, languageCode))).json<UserStatus>();
  const choose = (id: number, language: unknown) => h.call('POST', '/language', player(id, 'en'), { body: { language } });

  it('remembers the chosen language across sessions that send another Telegram language', async () => {
    const id = h.newUserId();
    expect((await status(id)).language).toBeNull();
    const r = await choose(id, 'pt-BR');
    expect(r.statusCode).toBe(200);
    expect(r.json<UserStatus>()).toMatchObject({ id: String(id), language: 'pt-BR' });
    // Authentication rewrites language_code from Telegram; the choice stays.
    expect((await status(id, 'de')).language).toBe('pt-BR');
    expect((await choose(id, null)).json<UserStatus>().language).toBeNull();
    expect((await status(id)).language).toBeNull();
  });

  it('refuses an unknown locale, a wrong type and a missing field with a 400 naming language, changing nothing', async () => {
    const id = h.newUserId();
    await status(id);
    expect((await choose(id, 'fa')).statusCode).toBe(200);
    for (const bad of ['xx', 'pt-br', 'RU', '', 'en-US', 7, 'a'.repeat(30)]) {
      const r = await choose(id, bad);
      expect(r.statusCode, String(bad)).toBe(400);
      expect(r.json()).toMatchObject({ error: 'Bad Request', field: 'language' });
    }
    const missing = await h.call('POST', '/language', player(id, 'en'), { body: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ field: 'language' });
    const extra = await h.call('POST', '/language', player(id, 'en'), { body: { language: 'ru', theme: 'dark' } });
    expect(extra.statusCode).toBe(400);
    expect((await status(id)).language).toBe('fa');
    expect((await h.call('POST', '/language', null, { body: { language: 'ru' } })).statusCode).toBe(401);
    expect((await status(id)).language).toBe('fa');
  });

  it('sends a language broadcast to players who chose that language, else by their Telegram language', async () => {
    const s = await h.signIn();
    const chose = h.newUserId(); // Telegram in German, chose Turkish: in the segment
    const left = h.newUserId(); // Telegram in Turkish, chose Spanish: not in it
    const plain = h.newUserId(); // Telegram in Turkish (regional), no choice: in it
    await status(chose, 'de');
    await status(left, 'tr');
    await status(plain, 'tr-TR');
    await choose(chose, 'tr');
    await choose(left, 'es');
    await status(left, 'tr');
    const q = await h.admin('POST', '/broadcasts', s, { body: { message: 'Merhaba', segment: { kind: 'language', languageCode: 'tr' } } });
    expect(q.statusCode).toBe(202);
    expect(q.json()).toMatchObject({ total: 2 });
    const { broadcastId } = q.json<{ broadcastId: number }>();
    const recipients = await h.db.query<{ chat_id: string }>('SELECT chat_id::text FROM broadcast_recipients WHERE broadcast_id = $1 ORDER BY chat_id', [broadcastId]);
    expect(recipients.rows.map((r) => Number(r.chat_id)).sort()).toEqual([chose, plain].sort());
  });

  it('documents POST /language in the OpenAPI document', async () => {
    const doc = (await h.call('GET', '/openapi.json', null)).json<{ paths: Record<string, { post?: { requestBody?: unknown } }> }>();
    expect(doc.paths['/money/api/v1/airdrop/language']?.post?.requestBody).toBeDefined();
  });
});
