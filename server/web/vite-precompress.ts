import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { compress, compressedEncodings, loadAssets, precompressed, precompressedSuffix } from './asset-store.ts';

/**
 * Writes each built file's brotli and gzip forms beside it (`x.js.br`, `x.js.gz`), so that no
 * server process compresses the client again at every start (docs/decisions/launch.md, "The build
 * compresses"). The same rule and settings as the server's own compression (asset-store.ts).
 */
export const precompressPlugin = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'money-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    // After the bundle is written and public/ copied: every file of the build is in outDir.
    async closeBundle() {
      const writes = [...loadAssets(outDir)]
        .filter(([url, asset]) => precompressed(url, asset))
        .flatMap(([url, asset]) =>
          compressedEncodings.map(async (encoding) => writeFile(join(outDir, url + precompressedSuffix[encoding]), await compress(asset.body, encoding))),
        );
      await Promise.all(writes);
    },
  };
};
