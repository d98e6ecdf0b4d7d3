import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientBuildNeeded } from '../../server/web/build-client.ts';

const root = mkdtempSync(join(tmpdir(), 'money-root-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const touch = (path: string, atSeconds: number) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), 'x');
  utimesSync(join(root, path), atSeconds, atSeconds);
};

describe('npm start builds the client only when needed', () => {
  it('builds when dist/ is missing, skips when it is newer than the sources, rebuilds when a source changed', () => {
    touch('src/main.tsx', 1_000);
    touch('engine/economy.ts', 1_000);
    touch('index.html', 1_000);
    expect(clientBuildNeeded(root)).toBe('missing');
    touch('dist/index.html', 2_000);
    // Directories get the current time when files are written into them; age them too.
    for (const dir of ['src', 'engine', 'dist']) utimesSync(join(root, dir), 1_000, 1_000);
    expect(clientBuildNeeded(root)).toBeNull();
    touch('engine/economy.ts', 3_000);
    expect(clientBuildNeeded(root)).toBe('stale');
  });

  it('ignores test files, which are not part of the client', () => {
    touch('engine/economy.ts', 1_000);
    touch('engine/economy.test.ts', 5_000);
    utimesSync(join(root, 'engine'), 1_000, 1_000);
    expect(clientBuildNeeded(root)).toBeNull();
  });
});
