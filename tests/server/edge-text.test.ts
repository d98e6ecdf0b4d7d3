/**
 * Text PostgreSQL refuses (NUL, lone surrogates) is cleaned where it enters (server/core/clean-text.ts):
 * a player whose Telegram name holds them plays normally, and no text field turns into a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { signInitData, type TelegramUser } from '../../server/players/init-data.ts';
import { cleanStrings, cleanText } from '../../server/core/clean-text.ts';
import { backends, botToken, openServicesHarness, type ServicesHarness } from '../services/harness.ts';

const signed = (h: ServicesHarness, u: TelegramUser) => signInitData(botToken, { user: u }, h.clock.now());

describe('cleanText', () => {
  it('removes NUL and replaces lone surrogates, keeping whole emoji', () => {
    expect(cleanText('a\u0000b')).toBe('ab');
    expect(cleanText('x\uD83D')).toBe('x\uFFFD');
    expect(cleanText('\uDE00y')).toBe('\uFFFDy');
    expect(cleanText('ok 😀')).toBe('ok 😀');
    expect(cleanStrings({ 'k\u0000': ['v\u0000', 1, null, { d: '\uD800' }] })).toEqual({ k: ['v', 1, null, { d: '\uFFFD' }] });
  });

  it('keeps "__proto__" a plain key', () => {
    const out = cleanStrings(JSON.parse('{"__proto__": {"polluted": 1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe.each(backends)('text PostgreSQL refuses, at the edge (%s)', (backend) => {
  let h: ServicesHarness;
  const apiKey = 'broadcast-key-for-tests';
  beforeAll(async () => {
    h = await openServicesHarness(backend, { BROADCAST_API_KEY: apiKey });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a NUL in first_name and username: the player is created and plays, again and again', async () => {
    const id = await h.newPlayer({ first_name: 'Ann\u0000ie', last_name: 'B\u0000', username: 'ann\u0000_x' });
    const row = (await h.db.query<{ tele_name: string; tele_username: string }>('SELECT tele_name, tele_username FROM users WHERE id = $1', [id])).rows[0]!;
    expect(row).toEqual({ tele_name: 'Annie B', tele_username: 'ann_x' });
    // Later calls carry the same signed init data; the signature is checked on the raw text.
    const again = await h.app.inject({ method: 'GET', url: '/money/api/v1/airdrop', headers: { authorization: `tma ${signed(h, { id, first_name: 'Ann\u0000ie', username: 'ann\u0000_x' })}` } });
    expect(again.statusCode).toBe(200);
    expect(again.json<UserStatus>().teleUsername).toBe('ann_x');
  });

  it('a lone surrogate in a name (a cut emoji) becomes U+FFFD', async () => {
    const id = await h.newPlayer({ first_name: 'Zo\uD83D', username: undefined });
    const row = (await h.db.query<{ tele_name: string }>('SELECT tele_name FROM users WHERE id = $1', [id])).rows[0]!;
    expect(row.tele_name).toBe('Zo\uFFFD');
  });

  it('any other text field: NUL and lone surrogates are cleaned before they are stored', async () => {
    const r = await h.call('POST', '/public/send-telemss', null, {
      headers: { 'x-api-key': apiKey },
      body: { message: 'hi\u0000 there \uDC00', btns: [{ btnType: 'url', btnText: 'a\u0000b', btnLink: 'https://a.example/x' }] },
    });
    expect(r.statusCode).toBe(202);
    const row = (await h.db.query<{ message: string; buttons: unknown }>('SELECT message, buttons FROM broadcasts WHERE id = $1', [r.json().broadcastId])).rows[0]!;
    expect(row.message).toBe('hi there \uFFFD');
    expect(JSON.stringify(row.buttons)).toContain('"ab"');
    // A query string is text too: cleaned, then judged by its schema (a 400 naming the field).
    const u = await h.newPlayer();
    const q = await h.call('POST', '/referral', u, { query: { refcode: 'ab\u0000cd' } });
    expect(q.statusCode).toBe(400);
    expect(q.json().field).toBe('refcode');
  });
});
