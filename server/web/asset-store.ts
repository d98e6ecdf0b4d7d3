import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
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

/** Brotli q9 or gzip 9 of `body`: the one way a body is compressed, at build time or by the server. */
export const compress = (body: Buffer, encoding: Exclude<Encoding, 'identity'>): Promise<Buffer> =>
  encoding === 'br'
    ? brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gz(body, { level: 9 });

/** The compressed body for an encoding, made once and kept (or read from the build, see loadAssets). */
export const encodedBody = (asset: Asset, encoding: Encoding): Promise<Buffer> | Buffer => {
  if (encoding === 'identity' || !asset.compressible) return asset.body;
  let made = asset.encoded[encoding];
  if (!made) {
    made = compress(asset.body, encoding);
    asset.encoded[encoding] = made;
  }
  return made;
};

/** The encodings the server compresses to, and the build writes forms of. */
export const compressedEncodings = ['br', 'gzip'] as const satisfies readonly Exclude<Encoding, 'identity'>[];

/** The file beside an asset that holds its compressed form, by encoding. */
export const precompressedSuffix = { br: '.br', gzip: '.gz' } as const satisfies Record<Exclude<Encoding, 'identity'>, string>;

/**
 * Whether the build writes an asset's compressed forms beside it and the server compresses it at
 * start when it finds none: every compressible file but source maps (only a debugger asks for
 * them, so they are compressed on a first request) and the raw `/index.html` (never served: the
 * server serves its own documents made from it). docs/decisions/launch.md, "The build compresses".
 */
export const precompressed = (url: string, asset: Asset): boolean => asset.compressible && !url.endsWith('.map') && url !== '/index.html';

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

/**
 * Every file under `dir`, keyed by URL path ("/assets/index-abc.js"). An asset's compressed forms
 * written by the build (`x.js.br`, `x.js.gz`) become its encoded bodies, not files of their own; a
 * form older than its file is left out, and the server compresses that file itself.
 */
export const loadAssets = (dir: string): Map<string, Asset> => {
  const files = new Map<string, { full: string; stat: Stats }>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else files.set(`/${relative(dir, full).split(sep).join('/')}`, { full, stat });
    }
  };
  walk(dir);
  const assets = new Map<string, Asset>();
  const forms = new Set<string>();
  // Sorted, a file comes before its forms (its URL is a prefix of theirs): no form is read twice.
  for (const [url, { full, stat }] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (forms.has(url)) continue;
    const asset = makeAsset(url, readFileSync(full));
    assets.set(url, asset);
    if (!precompressed(url, asset)) continue;
    for (const encoding of compressedEncodings) {
      const formUrl = url + precompressedSuffix[encoding];
      forms.add(formUrl);
      const form = files.get(formUrl);
      if (form && form.stat.mtimeMs >= stat.mtimeMs) asset.encoded[encoding] = Promise.resolve(readFileSync(form.full));
    }
  }
  return assets;
};

/**
 * Starts compressing, in the background, what has no compressed form yet (the build's are read by
 * loadAssets), so first requests do not wait for it.
 */
export const warmCompression = (assets: Iterable<Asset>): Promise<void> =>
  Promise.all([...assets].flatMap((a) => (a.compressible ? compressedEncodings.map((e) => encodedBody(a, e)) : []))).then(
    () => undefined,
  );
