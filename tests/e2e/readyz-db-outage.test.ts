/**
 * /readyz follows the database (docs/operations.md "Probes"): the real server process on a private
 * PostgreSQL cluster, which the test stops and starts again. While it is away /readyz answers 503
 * "database" and /livez 200, /metrics says money_db_up 0 and counts the players' 503s; once it is
 * back /readyz answers 200 again by itself.
 */
import { describe, expect, it } from 'vitest';
import { apiAs, serverNow, testUser } from './harness.ts';
import { missingBinaries, privatePostgresSuite } from './private-postgres.ts';

const missing = missingBinaries();
if (missing.length > 0) console.warn(`readyz-db-outage: skipped, missing ${missing.join(', ')}`);
const token = 'readyz-e2e-token-0123456789abcdef';

describe.skipIf(missing.length > 0)('/readyz while the database goes away and comes back (private PostgreSQL)', () => {
  const suite = privatePostgresSuite();

  it('answers 503 "database" while it is away, /livez stays 200, and 200 again by itself', async () => {
    const s = await suite.startServer({ METRICS_TOKEN: token });
    // Every call is bounded: a probe that hangs fails the test instead of stalling it.
    const probe = async (path: string) => {
      const res = await fetch(`${s.base}${path}`, { signal: AbortSignal.timeout(10_000) });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as unknown };
    };
    const metrics = async () => (await fetch(`${s.base}/metrics`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) })).text();
    const unavailableAnswers = (text: string) => Number(/^money_http_db_unavailable_total (\d+)$/m.exec(text)?.[1]);

    expect(await probe('/readyz')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await probe('/livez')).toMatchObject({ status: 200, body: { ok: true } });
    expect(await metrics()).toMatch(/^money_db_up\{pool="requests"\} 1$/m);
    const player = apiAs(s, testUser(910), await serverNow(s));
    expect((await player.call('GET', '')).status).toBe(200);
    const before = unavailableAnswers(await metrics());

    suite.pg.stop();
    const away = await probe('/readyz');
    expect(away).toMatchObject({ status: 503, retryAfter: '1', body: { ok: false, reason: 'database', message: expect.any(String) } });
    expect(await probe('/livez')).toMatchObject({ status: 200, body: { ok: true } });
    expect((await player.call('GET', '')).status).toBe(503);
    const during = await metrics();
    expect(during).toMatch(/^money_db_up\{pool="requests"\} 0$/m);
    expect(unavailableAnswers(during)).toBe(before + 1);

    suite.pg.start();
    // Nothing restarts the server: its pool reconnects on the next probe (bounded number of tries).
    let back = await probe('/readyz');
    for (let i = 0; back.status !== 200 && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await probe('/readyz');
    }
    expect(back).toMatchObject({ status: 200, body: { ok: true } });
    expect(await metrics()).toMatch(/^money_db_up\{pool="requests"\} 1$/m);
    expect(s.proc.exitCode, s.output()).toBeNull();
  }, 120_000);
});
