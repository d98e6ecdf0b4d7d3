/**
 * `WORKERS=2 npm start` (server/core/cluster.ts): two API workers answer on one port, and SIGTERM stops
 * both through their own shutdown and exits 0. On PGlite more than one worker is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startServer, tempDataDir } from './harness.ts';
import { missingBinaries, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';

const missing = missingBinaries();
if (missing.length > 0) console.warn(`workers: skipped, missing ${missing.join(', ')}`);

describe('WORKERS', () => {
  const dataDir = tempDataDir();
  afterAll(() => removeDir(dataDir));

  it('more than one worker on PGlite is refused with the reason', async () => {
    await expect(startServer({ dataDir, env: { WORKERS: '2' } })).rejects.toThrow(/WORKERS: more than 1 worker needs PostgreSQL \(set DATABASE_URL\)/);
  });

  describe.skipIf(missing.length > 0)('on PostgreSQL', () => {
    let pg: PrivatePostgres;
    beforeAll(async () => {
      pg = await startPrivatePostgres();
    });
    afterAll(() => pg?.destroy());

    it('runs two workers on one port and stops them both cleanly', async () => {
      const server = await startServer({ dataDir, databaseUrl: pg.url, env: { WORKERS: '2' } });
      try {
        while ((server.output().match(/MONEY is running on/g) ?? []).length < 2) await new Promise((r) => setTimeout(r, 50));
        expect(server.output()).toMatch(/2 API workers on one port/);
        const answers = await Promise.all(Array.from({ length: 20 }, async () => (await fetch(`${server.base}/healthz`)).status));
        expect(answers.every((s) => s === 200)).toBe(true);
        expect(await server.stop('SIGTERM')).toBe(0);
        expect((server.output().match(/Stopped \(balancers \d+ ms, background/g) ?? []).length).toBe(2);
        expect(server.output()).toMatch(/All workers stopped/);
      } finally {
        await server.stop('SIGKILL');
      }
    });
  });
});
