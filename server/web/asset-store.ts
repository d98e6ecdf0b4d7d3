import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const contentTypes: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  webmanifest: 'application/manifest+json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  woff: 'font/woff',
  mp4: 'video/mp4',
  wasm: 'application/wasm',
};

// Images, fonts and video are already compressed; compressing them again only costs CPU.
const compressible = new Set(['html', 'js', 'mjs', 'css', 'json', 'map', 'webmanifest', 'txt', 'xml', 'svg', 'ico', 'wasm']);

export type Encoding = 'br' | 'gzip' | 'identity';

/** One file held in memory, with its validator and lazily made compressed forms. */
export interface Asset {
  body: Buffer;
  contentType: string;
  etag: string;
  compressible: boolean;
  encoded: Partial<Record<Exclude<Encoding, 'identity'>, Promise<Buffer>>>;
}

const extension = (path: string): string => path.slice(path.lastIndexOf('.') + 1).toLowerCase();

/** Makes an in-memory asset from bytes (also used for the config-injected index.html). */
export const makeAsset = (path: string, body: Buffer): Asset => {
  const ext = extension(path);
  return {
    body,
    contentType: contentTypes[ext] ?? 'application/octet-stream',
    etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
    compressible: compressible.has(ext) && body.length > 512,
    encoded: {},
  };
};

/** The compressed body for an encoding, made once and kept. */
export const encodedBody = (asset: Asset, encoding: Encoding): Promise<Buffer> | Buffer => {
  if (encoding === 'identity' || !asset.compressible) return asset.body;
  let made = asset.encoded[encoding];
  if (!made) {
    made =
      encoding === 'br'
        ? brotli(asset.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: asset.body.length } })
        : gz(asset.body, { level: 9 });
    asset.encoded[encoding] = made;
  }
  return made;
};

/** Picks br, then gzip, from an Accept-Encoding header (q=0 refuses). */
export const pickEncoding = (acceptEncoding: string | undefined): Encoding => {
  if (!acceptEncoding) return 'identity';
  const offered = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    offered.set(name ?? '', q ? Number(q.slice(2)) : 1);
  }
  const accepts = (name: string): boolean => (offered.get(name) ?? offered.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
};

/** Every file under `dir`, keyed by URL path ("/assets/index-abc.js"). */
export const loadAssets = (dir: string): Map<string, Asset> => {
  const assets = new Map<string, Asset>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const url = `/${relative(dir, full).split(sep).join('/')}`;
        assets.set(url, makeAsset(url, readFileSync(full)));
      }
    }
  };
  walk(dir);
  return assets;
};

/** Starts compressing the text assets in the background, so first requests do not wait for it. */
export const warmCompression = (assets: Iterable<Asset>): Promise<void> =>
  Promise.all([...assets].flatMap((a) => (a.compressible ? [encodedBody(a, 'br'), encodedBody(a, 'gzip')] : []))).then(
    () => undefined,
  );
