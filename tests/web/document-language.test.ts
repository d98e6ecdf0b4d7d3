import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { registerWeb } from '../../server/web/web-plugin.ts';
import { defaultConfig } from '../../src/config.ts';

// The served document follows the reader's language (docs/i18n.md): `?lang=`, the `lang` cookie,
// Accept-Language, English.
describe('the document language', () => {
  let app: FastifyInstance;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'money-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html lang="en"><head><title>MONEY — Telegram Native Social Money</title></head><body><!--money-config--><div id="root"></div></body></html>');
    app = Fastify();
    await registerWeb(app, { distDir: dist, publicConfig: { ...defaultConfig, apiBase: apiPrefix }, https: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const htmlTag = (body: string) => /<html[^>]*>/.exec(body)?.[0];
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers });

  it('is English with no hint, and says what it varies on', async () => {
    const res = await get('/');
    expect(htmlTag(res.body)).toBe('<html lang="en" dir="ltr">');
    expect(res.body).toContain('<title>MONEY — Telegram Native Social Money</title>');
    expect(res.headers['content-language']).toBe('en');
    expect(String(res.headers.vary)).toContain('Accept-Language');
    expect(String(res.headers.vary)).toContain('Cookie');
  });

  it('follows Accept-Language, by q then order, to one of the nine', async () => {
    const ru = await get('/', { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' });
    expect(htmlTag(ru.body)).toBe('<html lang="ru" dir="ltr">');
    expect(ru.body).toContain('<title>MONEY — социальные деньги прямо в Telegram</title>');
    expect(htmlTag((await get('/policy', { 'accept-language': 'de;q=1, fa;q=0.5' })).body)).toBe('<html lang="fa" dir="rtl">');
    expect(htmlTag((await get('/terms', { 'accept-language': 'pt-PT' })).body)).toBe('<html lang="pt-BR" dir="ltr">');
    expect(htmlTag((await get('/', { 'accept-language': 'de, fr' })).body)).toBe('<html lang="en" dir="ltr">');
    expect(htmlTag((await get('/', { 'accept-language': 'tr;q=0, es;q=0.1' })).body)).toBe('<html lang="es" dir="ltr">');
  });

  it('lets ?lang= beat the cookie, and the cookie beat Accept-Language', async () => {
    expect(htmlTag((await get('/?lang=uk', { cookie: 'lang=id', 'accept-language': 'vi' })).body)).toBe('<html lang="uk" dir="ltr">');
    expect(htmlTag((await get('/', { cookie: 'a=1; lang=id', 'accept-language': 'vi' })).body)).toBe('<html lang="id" dir="ltr">');
    expect(htmlTag((await get('/?lang=xx', { 'accept-language': 'vi' })).body)).toBe('<html lang="vi" dir="ltr">');
  });

  it('gives each language its own validator, and the not-found page a language too', async () => {
    const ru = await get('/', { 'accept-language': 'ru' });
    const en = await get('/');
    expect(ru.headers.etag).not.toBe(en.headers.etag);
    expect((await get('/', { 'accept-language': 'ru', 'if-none-match': String(ru.headers.etag) })).statusCode).toBe(304);
    const missing = await get('/nope', { 'accept-language': 'fa' });
    expect(missing.statusCode).toBe(404);
    expect(htmlTag(missing.body)).toBe('<html lang="fa" dir="rtl">');
  });
});
