import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiPrefix, type PublicConfig } from '../../engine/wire/api-types.ts';
import { encodedBody, loadAssets, makeAsset, pickEncoding, precompressed, warmCompression, type Asset } from './asset-store.ts';
import { langCookieOf, langParam, locales, pickSiteLocale, type Locale } from '../../engine/rules/i18n/locales.ts';
import { injectConfig, localizeHtml } from './index-html.ts';
import { securityHeaders } from './security-headers.ts';
import { refuse } from '../core/errors.ts';

export interface WebOptions {
  /** The Vite build output (dist/). */
  distDir: string;
  /** What the client reads from the config block. */
  publicConfig: PublicConfig;
  /** True behind https (PUBLIC_URL is https): adds HSTS and upgrade-insecure-requests. */
  https: boolean;
}

/** The client routes of both trees (spec §2) and the operator console; each answers with index.html and lets the router take over. */
export const documentPaths = ['/', '/policy', '/terms', '/airdrop', '/app', '/app/*', '/admin', '/admin/*'] as const;

// Vite names what it puts in /assets by content hash, so those never change: cache for a year.
const immutable = 'public, max-age=31536000, immutable';
// Files copied from public/ keep their names; revalidate them daily with the ETag.
const daily = 'public, max-age=86400';
// The document carries the config and the current asset names: always revalidate.
const noCache = 'no-cache';

const send = async (req: FastifyRequest, reply: FastifyReply, asset: Asset, cacheControl: string, status = 200, vary: string[] = []) => {
  reply.header('cache-control', cacheControl).header('etag', asset.etag).header('content-type', asset.contentType);
  const varies = asset.compressible ? ['Accept-Encoding', ...vary] : vary;
  if (varies.length) reply.header('vary', varies.join(', '));
  if (status === 200 && req.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  const encoding = asset.compressible ? pickEncoding(req.headers['accept-encoding']) : 'identity';
  const body = await encodedBody(asset, encoding);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.code(status).send(body);
};

/** The document's language: `?lang=`, the `lang` cookie, Accept-Language, English (docs/i18n.md). */
export const documentLocale = (req: FastifyRequest): Locale => {
  const query = (req.query as Record<string, unknown> | undefined)?.[langParam];
  return pickSiteLocale({
    query: typeof query === 'string' ? query : null,
    cookie: langCookieOf(req.headers.cookie),
    acceptLanguage: req.headers['accept-language'],
  });
};

/**
 * Serves the built client on the app: the document routes of both trees with the runtime config
 * injected, hashed assets with long caching, and security headers on every response (site, mini-app
 * and API each get their own policy). Registered on the root instance so its hook covers the API too.
 * Resolves when the assets' compressed forms are ready.
 */
export const registerWeb = (app: FastifyInstance, opts: WebOptions): Promise<void> => {
  const indexPath = join(opts.distDir, 'index.html');
  if (!existsSync(indexPath)) throw new Error(`The client is not built: ${indexPath} is missing (run npm run build).`);
  const assets = loadAssets(opts.distDir);
  const html = injectConfig(readFileSync(indexPath, 'utf8'), opts.publicConfig);
  // One document per language, made once: `<html lang dir>` differs (docs/i18n.md).
  const indexes = new Map<Locale, Asset>(locales.map((l) => [l, makeAsset('/index.html', Buffer.from(localizeHtml(html, l)))]));
  const sendDocument = (req: FastifyRequest, reply: FastifyReply, status = 200) => {
    const locale = documentLocale(req);
    reply.header('content-language', locale);
    return send(req, reply, indexes.get(locale)!, noCache, status, ['Accept-Language', 'Cookie']);
  };
  // Raw index.html still has the marker instead of the config: never serve it as a file.
  assets.delete('/index.html');

  app.addHook('onRequest', async (req, reply) => {
    reply.headers(securityHeaders(req.url, { apiPrefix, https: opts.https }));
  });

  for (const path of documentPaths) app.get(path, (req, reply) => sendDocument(req, reply));

  // Everything else: a built file, or the site's not-found page (404 with the document, so the
  // router can say so), except under the API, whose 404 stays the API's own.
  app.get('/*', (req, reply) => {
    let path: string;
    try {
      path = decodeURIComponent((req.url.split('?')[0] ?? '/').replace(/\/+$/, ''));
    } catch {
      throw refuse('malformedUrl');
    }
    const asset = assets.get(path);
    if (asset) return send(req, reply, asset, path.startsWith('/assets/') ? immutable : daily);
    if (path.startsWith('/money/')) return reply.callNotFound();
    return sendDocument(req, reply, 404);
  });

  return warmCompression([...indexes.values(), ...[...assets].filter(([url, a]) => precompressed(url, a)).map(([, a]) => a)]);
};
