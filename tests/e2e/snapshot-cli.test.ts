/**
 * `npm run airdrop:snapshot` (docs/airdrop.md "The snapshot"): bad dates stop it before it opens the
 * database, and a round it builds goes through the operator action (takeAirdropSnapshot), whose
 * audit row is written with the round, as the operator API's and the console's are.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/background/settings.ts';
import { openDb } from '../../server/core/db/db.ts';
import { dbKinds, freshDatabase, removeDir, tempDataDir } from './harness.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = tempDataDir();
afterAll(() => removeDir(dataDir));

// Embedded PGlite in DATA_DIR: opening the database creates DATA_DIR/pglite.
const snapshotCliOn = (env: Record<string, string>, ...args: (number | string)[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'server/airdrop/snapshot-cli.ts', ...args.map(String)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
const snapshotCli = (...args: (number | string)[]) => snapshotCliOn({ DATA_DIR: dataDir }, ...args);

describe('the snapshot command line', () => {
  const nowS = Math.floor(Date.now() / 1000);

  it('refuses an expireAt already past, or not after startFrom, with a message, opening nothing', () => {
    for (const [startFrom, expireAt] of [
      [nowS - 86_400, nowS - 60],
      [nowS + 60, nowS + 60],
      [nowS + 120, nowS + 60],
    ]) {
      const r = snapshotCli(1, startFrom!, expireAt!);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^expireAt: expireAt must be /m);
    }
    // What becomes of excluded players' MONEY: unminted or redistributed, nothing else.
    for (const args of [[1, nowS, nowS + 86_400, 'burn'], [1, nowS, nowS + 86_400, 'unminted', 'extra']]) {
      const r = snapshotCli(...args);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^usage: npm run airdrop:snapshot -- <round> <startFrom unix s> <expireAt unix s> \[unminted\|redistributed\]/m);
    }
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
  });

  it('opens the database for dates it accepts (no eligible player here: nothing is built)', () => {
    const r = snapshotCli(1, nowS, nowS + 86_400);
    expect(r.stderr).toContain('no eligible player');
    expect(r.status).toBe(1);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
  });
});

describe.each(dbKinds)('the snapshot command line builds a round through the operator action (%s)', (kind) => {
  it('writes the audit row as the operator key (admin id 0), with the built round, once', async () => {
    const dir = tempDataDir();
    const fresh = await freshDatabase(kind);
    const env = { DATA_DIR: dir, ...(fresh.url !== undefined ? { DATABASE_URL: fresh.url } : {}) };
    const open = () => openDb(loadConfig({ NODE_ENV: 'test', ...env }));
    try {
      // One eligible player: MONEY above 0 and a linked wallet. PGlite in DATA_DIR takes one process at a time.
      const seed = await open();
      await seed.query("INSERT INTO users (id, refcode, total_money, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms) VALUES (42, 'r42', 12.5, 0, 0, 0, 0)");
      await seed.query(`INSERT INTO ton_wallets (user_id, address, public_key, wallet_version, linked_at_ms) VALUES (42, '0:${'c3'.repeat(32)}', '', 'v4R2', 0)`);
      await seed.close();

      const nowS = Math.floor(Date.now() / 1000);
      const built = snapshotCliOn(env, 7, nowS, nowS + 86_400);
      expect(built.status, built.stderr).toBe(0);
      expect(built.stdout).toMatch(/^Round 7 built: 1 wallets/m);
      expect(snapshotCliOn(env, 7, nowS, nowS + 86_400).stdout).toMatch(/^Round 7 was already built/m);

      const db = await open();
      try {
        const audit = await db.query<{ admin_id: string; target: string; root: string | null }>(
          "SELECT admin_id::text, target, after->>'merkleRoot' AS root FROM admin_audit WHERE action = 'airdrop.snapshot'",
        );
        const round = await db.query<{ status: string; merkle_root: string }>('SELECT status, merkle_root FROM airdrop_rounds WHERE round = 7');
        expect(round.rows[0]!.status).toBe('built');
        expect(audit.rows).toEqual([{ admin_id: '0', target: 'round:7', root: round.rows[0]!.merkle_root }]);
      } finally {
        await db.close();
      }
    } finally {
      await fresh.drop();
      removeDir(dir);
    }
  });
});
