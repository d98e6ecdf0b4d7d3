/** `npm run airdrop:snapshot`'s refusals (docs/airdrop.md "The snapshot"): bad dates stop it before it opens the database. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDataDir } from './harness.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = tempDataDir();
afterAll(() => removeDir(dataDir));

// Embedded PGlite in DATA_DIR: opening the database creates DATA_DIR/pglite.
const snapshotCli = (...args: (number | string)[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'server/airdrop/snapshot-cli.ts', ...args.map(String)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 60_000,
  });

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
