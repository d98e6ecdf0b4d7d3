/**
 * `WORKERS=2` with METRICS_TOKEN (docs/operations.md "Metrics"): a scrape reaches one worker, and
 * still counts every worker's requests, because the primary merges their registries. Each probe
 * below comes on a new connection, so node:cluster's round robin hands them to both workers.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startServer, tempDataDir } from './harness.ts';
import { missingBinaries, startPrivatePostgres, type PrivatePostgres } from './private-postgres.ts';

const missing = missingBinaries();
if (missing.length > 0) console.warn(`metrics-workers: skipped, missing ${missing.join(', ')}`);
const token = 'workers-e2e-token-0123456789abcdef';

/** One GET on its own connection (no keep-alive); resolves with the status and the body. */
const get = (url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers, timeout: 10_000 }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
    req.end();
  });

describe.skipIf(missing.length > 0)('metrics of WORKERS=2 (private PostgreSQL)', () => {
  let pg: PrivatePostgres;
  const dataDir = tempDataDir();
  beforeAll(async () => {
    pg = await startPrivatePostgres();
  });
  afterAll(() => {
    pg?.destroy();
    removeDir(dataDir);
  });

  it("one scrape, whichever worker answers it, counts both workers' requests", async () => {
    const server = await startServer({ dataDir, databaseUrl: pg.url, env: { WORKERS: '2', METRICS_TOKEN: token } });
    try {
      for (let i = 0; (server.output().match(/MONEY is running on/g) ?? []).length < 2 && i < 600; i++) await new Promise((r) => setTimeout(r, 50));
      expect((server.output().match(/MONEY is running on/g) ?? []).length, server.output()).toBe(2);
      const probes = 20;
      for (let i = 0; i < probes; i++) expect((await get(`${server.base}/livez`)).status).toBe(200);
      const livez = /^money_http_request_duration_seconds_count\{method="GET",route="\/livez",status="200"\} (\d+)$/m;
      // Two scrapes, on new connections: round robin gives them to different workers; both see all.
      for (const _ of [1, 2]) {
        const scraped = await get(`${server.base}/metrics`, { authorization: `Bearer ${token}` });
        expect(scraped.status, scraped.body).toBe(200);
        expect(Number(livez.exec(scraped.body)?.[1])).toBe(probes);
        // Both workers' process metrics, merged into one series each.
        expect(scraped.body.match(/^process_resident_memory_bytes \d/gm)).toHaveLength(1);
      }
      expect((await get(`${server.base}/metrics`)).status).toBe(404);
      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      await server.stop('SIGKILL');
    }
  }, 180_000);
});
