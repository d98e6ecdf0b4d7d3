/** `npm start`'s refusals: the real server/main.ts with a bad environment stops before anything runs. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDataDir } from './harness.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = tempDataDir();
afterAll(() => removeDir(dataDir));

const start = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, SKIP_CLIENT_BUILD: '1', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('startup refusals', () => {
  it('production without BOT_TOKEN refuses to start, listing every problem of the environment', () => {
    const r = start({ NODE_ENV: 'production', PORT: 'abc', COMMUNITY_URL: 'not a url', TEST_MODE: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Invalid server configuration');
    for (const key of ['BOT_TOKEN', 'PORT', 'COMMUNITY_URL', 'TEST_MODE']) expect(r.stderr).toMatch(new RegExp(`^  - ${key}: `, 'm'));
    // Nothing was created: no database, no development token.
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
    expect(existsSync(join(dataDir, 'dev-bot-token'))).toBe(false);
  });
});
