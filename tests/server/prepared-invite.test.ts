import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreparedInvite, UserStatus } from '../../engine/wire/api-types.ts';
import { preparedMessageRefusal, startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { backends, botToken, openHarness, type Harness } from './harness.ts';

const publicUrl = 'https://money.example.org';

describe.each(backends)('POST /invite/prepared: the invite as a rich message (%s)', (backend) => {
  let h: Harness;
  let tg: FakeTelegram;
  beforeAll(async () => {
    tg = await startFakeTelegram(botToken);
    h = await openHarness(backend, undefined, { BOT_API_ROOT: tg.apiRoot, PUBLIC_URL: publicUrl, BOT_USERNAME: 'money_test_bot', MINI_APP_NAME: 'app', OUTSIDE_TIMEOUT_MS: '1000' });
  });
  afterAll(async () => {
    await h?.close();
    await tg?.close();
  });

  it('prepares, for this player, the reward card with their name and title and a button opening the mini-app with their refcode', async () => {
    const id = h.newUserId();
    const user = { id, first_name: 'Ada', last_name: 'Lovelace', username: `ada${id}` };
    const status = (await h.call('GET', '', user)).json<UserStatus>();
    const r = await h.call('POST', '/invite/prepared', user);
    expect(r.statusCode).toBe(200);
    const answer = r.json<PreparedInvite>();
    const kept = tg.prepared.at(-1)!;
    expect(answer).toEqual({ id: kept.id, expirationDate: kept.expiration_date });
    expect(kept.user_id).toBe(id);
    expect(kept.allowed).toEqual({ user: true, bot: false, group: true, channel: true });
    expect(kept.result).toMatchObject({
      type: 'photo',
      photo_url: `${publicUrl}/invite-card.jpg`,
      thumbnail_url: `${publicUrl}/invite-card.jpg`,
      reply_markup: { inline_keyboard: [[{ text: 'Play MONEY', url: `https://t.me/money_test_bot/app?startapp=${status.refcode}` }]] },
    });
    expect(String(kept.result.caption)).toMatch(/^Ada Lovelace · (Cash Enthusiast|Wealth Builder|Profit Pro|Fortune Master|Rich Legend)\nTap the coin with me on MONEY/);
  });

  it('writes the message in the language the player chose', async () => {
    const id = h.newUserId();
    await h.call('GET', '', id);
    expect((await h.call('POST', '/language', id, { body: { language: 'ru' } })).statusCode).toBe(200);
    expect((await h.call('POST', '/invite/prepared', id)).statusCode).toBe(200);
    const caption = String(tg.prepared.at(-1)!.result.caption);
    expect(caption).not.toMatch(/Tap the coin/);
    expect(caption).toMatch(/[а-яё]/i);
  });

  it('answers 503 naming Telegram when the Bot API refuses (nothing prepared) or does not answer in time', async () => {
    const id = h.newUserId();
    await h.call('GET', '', id);
    const before = tg.prepared.length;
    tg.settings.blocked.add(id);
    const refused = await h.call('POST', '/invite/prepared', id);
    tg.settings.blocked.delete(id);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'outsideServiceUnavailable' });
    expect(refused.body).not.toContain(tg.apiRoot);
    expect(tg.prepared.length).toBe(before);

    // An answer later than OUTSIDE_TIMEOUT_MS (1 s) is no answer.
    tg.settings.delayMs = 3_000;
    const slow = await h.call('POST', '/invite/prepared', id);
    tg.settings.delayMs = 0;
    expect(slow.statusCode).toBe(503);
    expect(slow.json()).toMatchObject({ code: 'outsideServiceUnavailable' });
  });

  it('needs a player', async () => {
    expect((await h.call('POST', '/invite/prepared', null)).statusCode).toBe(401);
  });
});

describe('POST /invite/prepared without PUBLIC_URL', () => {
  it('prepares the card at the default address, http://localhost:PORT, as the demo does with its Bot API stand-in', async () => {
    const tg = await startFakeTelegram(botToken);
    const h = await openHarness('pglite', undefined, { BOT_API_ROOT: tg.apiRoot, PORT: '3999' });
    try {
      const id = h.newUserId();
      const r = await h.call('POST', '/invite/prepared', id);
      expect(r.statusCode).toBe(200);
      expect(tg.prepared.at(-1)!.result).toMatchObject({ photo_url: 'http://localhost:3999/invite-card.jpg' });
    } finally {
      await h.close();
      await tg.close();
    }
  }, 120_000);
});

describe('the Bot API stand-in refuses a prepared message as Telegram does', () => {
  const good = {
    user_id: 42,
    result: { type: 'photo', id: 'invite-Ab3dE9', photo_url: 'https://x.org/c.jpg', thumbnail_url: 'https://x.org/c.jpg', reply_markup: { inline_keyboard: [[{ text: 'Play', url: 'https://t.me/b/app?startapp=Ab3dE9' }]] } },
    allow_user_chats: true,
  };
  const withResult = (over: Record<string, unknown>) => ({ ...good, result: { ...good.result, ...over } });

  it('accepts a good one, also with the result as a JSON string (form encoding)', () => {
    expect(preparedMessageRefusal(good)).toBeNull();
    expect(preparedMessageRefusal({ ...good, result: JSON.stringify(good.result), allow_user_chats: 'true' })).toBeNull();
  });

  it('refuses a bad user, result, id, photo, caption, button or no allowed chat', () => {
    expect(preparedMessageRefusal({ ...good, user_id: undefined })).toMatch(/user_id/);
    expect(preparedMessageRefusal({ ...good, user_id: -5 })).toBe('Bad Request: invalid user_id specified');
    expect(preparedMessageRefusal({ ...good, result: '{' })).toMatch(/can't parse/);
    expect(preparedMessageRefusal(withResult({ type: 'poster' }))).toBe('Bad Request: RESULT_TYPE_INVALID');
    expect(preparedMessageRefusal(withResult({ id: 'x'.repeat(65) }))).toBe('Bad Request: RESULT_ID_INVALID');
    expect(preparedMessageRefusal(withResult({ photo_url: '/c.jpg' }))).toBe('Bad Request: PHOTO_URL_INVALID');
    expect(preparedMessageRefusal(withResult({ caption: 'x'.repeat(1025) }))).toBe('Bad Request: MEDIA_CAPTION_TOO_LONG');
    expect(preparedMessageRefusal(withResult({ reply_markup: { inline_keyboard: [[{ text: 'Play', web_app: { url: 'https://x.org' } }]] } }))).toBe('Bad Request: BUTTON_TYPE_INVALID');
    expect(preparedMessageRefusal(withResult({ reply_markup: { inline_keyboard: [[{ text: 'Play', url: 'javascript:1' }]] } }))).toBe('Bad Request: BUTTON_URL_INVALID');
    expect(preparedMessageRefusal({ ...good, allow_user_chats: false })).toBe('Bad Request: at least one chat type must be allowed');
  });
});
