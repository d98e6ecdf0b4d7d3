import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { listMigrations } from './migrate.ts';

// PGlite's package directory (node_modules/@electric-sql/pglite), found from its entry point.
const packageDir = (): string => {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
};

/**
 * Where the template of a new data directory is kept: node_modules/.cache/money, one directory per
 * PGlite version (a data directory only fits the PostgreSQL build that made it) and set of
 * migrations (the template is taken once they are applied).
 */
export const pgliteTemplateFile = (): string => {
  const dir = packageDir();
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const migrations = createHash('sha256');
  for (const m of listMigrations()) migrations.update(`${m.name}\0${m.sql}\0`);
  return join(dir, '..', '..', '.cache', 'money', `pglite-${version}-${migrations.digest('hex').slice(0, 12)}`);
};

/**
 * Opens PGlite in `dataDir`. A new data directory is made by `initdb`, PostgreSQL's bootstrap of
 * its catalog, which is most of a first start (docs/storage.md, "Start-up"), then `prepare`d (the
 * migrations). So the first directory this installation makes is copied, once prepared, to the
 * template; later new directories are copied from it (plain file copies, much faster than initdb
 * or PGlite's own tarball loading) and PGlite opens them as existing ones. Saving is best effort:
 * a failure only costs the next new directory its initdb again.
 */
export const openPgliteDir = async (
  dataDir: string,
  options: PGliteOptions,
  prepare: (lite: PGlite) => Promise<void>,
  template = pgliteTemplateFile(),
): Promise<PGlite> => {
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  if (fresh && existsSync(join(template, 'PG_VERSION'))) {
    cpSync(template, dataDir, { recursive: true });
    return PGlite.create({ ...options, dataDir });
  }
  const lite = await PGlite.create({ ...options, dataDir });
  if (fresh) {
    await prepare(lite);
    await saveTemplate(lite, dataDir, template).catch(() => {});
  }
  return lite;
};

const saveTemplate = async (lite: PGlite, dataDir: string, template: string): Promise<void> => {
  // Pages on disk as of a checkpoint, so a copy starts with nothing to replay but that.
  await lite.exec('CHECKPOINT');
  mkdirSync(dirname(template), { recursive: true });
  // Copied under another name and renamed: a concurrent start never sees half a template.
  const part = `${template}.${process.pid}.part`;
  rmSync(part, { recursive: true, force: true });
  // The lock file of the running instance is not part of the data.
  cpSync(dataDir, part, { recursive: true, filter: (src) => !src.endsWith('postmaster.pid') });
  renameSync(part, template);
};
