import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { openPgliteDir } from './pglite-template.ts';

describe('PGlite initdb template', () => {
  const root = mkdtempSync(join(tmpdir(), 'money-template-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('saves the first new data directory once prepared and makes the next new one from it', async () => {
    const template = join(root, 'template');
    const prepare = async (lite: PGlite) => void (await lite.exec('CREATE TABLE prepared (x int)'));
    const first = await openPgliteDir(join(root, 'a'), {}, prepare, template);
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(template, 'postmaster.pid'))).toBe(false);
    // Written after the template was taken: not in the next directory.
    await first.exec('CREATE TABLE only_in_a (x int); INSERT INTO only_in_a VALUES (1)');
    await first.close();

    const second = await openPgliteDir(join(root, 'b'), {}, () => Promise.reject(new Error('a copy is not prepared again')), template);
    const tables = await second.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE tablename IN ('only_in_a', 'prepared')");
    expect(tables.rows.map((r) => r.tablename)).toEqual(['prepared']);
    await second.exec('CREATE TABLE t (x int); INSERT INTO t VALUES (7)');
    await second.close();

    // Both directories reopen with their own data.
    const again = await openPgliteDir(join(root, 'b'), {}, prepare, template);
    expect((await again.query<{ x: number }>('SELECT x FROM t')).rows).toEqual([{ x: 7 }]);
    await again.close();
    const a = await openPgliteDir(join(root, 'a'), {}, prepare, template);
    expect((await a.query<{ x: number }>('SELECT x FROM only_in_a')).rows).toEqual([{ x: 1 }]);
    await a.close();
  });
});
