import { readdirSync, readFileSync } from 'node:fs';
import type { Db } from './db.ts';
import { transaction } from './transaction.ts';

const migrationsDir = new URL('./migrations/', import.meta.url);
const fileName = /^(\d{4})_[a-z0-9_-]+\.sql$/;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migration files NNNN_name.sql in version order (docs/storage.md lists each range). */
export const listMigrations = (dir: URL = migrationsDir): Migration[] => {
  const seen = new Map<number, string>();
  const out: Migration[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.sql')) continue;
    const m = fileName.exec(name);
    if (m === null) throw new Error(`migration file name must be NNNN_name.sql: ${name}`);
    const version = Number(m[1]);
    const dup = seen.get(version);
    if (dup !== undefined) throw new Error(`two migrations share version ${version}: ${dup}, ${name}`);
    seen.set(version, name);
    out.push({ version, name, sql: readFileSync(new URL(name, dir), 'utf8') });
  }
  return out.sort((a, b) => a.version - b.version);
};

/** Versions in schema_migrations; none when the table does not exist yet (a new database). */
const recordedVersions = async (db: Db): Promise<Set<number>> => {
  const table = await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  if (table.rows[0]?.t == null) return new Set();
  return new Set((await db.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
};

// Any fixed number: serialises concurrent starts of several API processes on one PostgreSQL.
const migrationLockKey = 4_242_001;

/** Applies, in order and each in its own transaction, the migrations not yet recorded. */
export const migrate = async (db: Db, migrations: Migration[] = listMigrations()): Promise<number[]> => {
  // A warm start (every migration recorded) reads and returns, taking no lock: a migration is
  // recorded in the transaction that applied it, so what is recorded is applied.
  const recorded = await recordedVersions(db);
  if (migrations.every((m) => recorded.has(m.version))) return [];
  // Under the same lock: two processes starting on a new database would otherwise race in
  // CREATE TABLE IF NOT EXISTS (PostgreSQL then refuses the second with a duplicate pg_type row).
  await transaction(db, async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`);
  });
  const present = await recordedVersions(db);
  const applied: number[] = [];
  for (const m of migrations.filter((x) => !present.has(x.version))) {
    const done = await transaction(db, async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
      const seen = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (seen.rows.length > 0) return false;
      await tx.exec(m.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.version);
  }
  return applied;
};
