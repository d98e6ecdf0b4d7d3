import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

// PGlite's package directory (node_modules/@electric-sql/pglite), found from its entry point.
const packageDir = (): string => {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
};

/**
 * Where the template of a new data directory is kept: node_modules/.cache/money, one file per
 * PGlite version (a data directory only fits the PostgreSQL build that made it).
 */
export const pgliteTemplateFile = (): string => {
  const dir = packageDir();
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  return join(dir, '..', '..', '.cache', 'money', `pglite-${version}-initdb.tar`);
};

/**
 * Opens PGlite in `dataDir`. A new data directory is made by `initdb`, PostgreSQL's bootstrap of
 * its catalog, which is most of a first start (docs/storage.md, "Start-up"). So the first
 * directory this installation makes is saved, right after initdb, as a tarball; later new
 * directories are unpacked from it instead. Saving is best effort: a failure only costs the next
 * new directory its initdb again.
 */
export const openPgliteDir = async (dataDir: string, options: PGliteOptions): Promise<PGlite> => {
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  const template = pgliteTemplateFile();
  if (fresh && existsSync(template))
    return PGlite.create({ ...options, dataDir, loadDataDir: new Blob([readFileSync(template)]) });
  const lite = await PGlite.create({ ...options, dataDir });
  if (fresh) await saveTemplate(lite, template).catch(() => {});
  return lite;
};

const saveTemplate = async (lite: PGlite, file: string): Promise<void> => {
  // Pages on disk as of a checkpoint, so the copy starts with nothing to replay but that.
  await lite.exec('CHECKPOINT');
  const tar = Buffer.from(await (await lite.dumpDataDir('none')).arrayBuffer());
  mkdirSync(dirname(file), { recursive: true });
  // Written under another name and renamed: a concurrent start never reads half a file.
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, tar);
  renameSync(part, file);
};
