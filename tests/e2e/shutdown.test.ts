/**
 * Graceful shutdown of the real server process: clicks stream in from several clients, SIGTERM
 * arrives mid-stream, the process exits 0, and after a restart on the same data every
 * acknowledged click is there and nothing unacknowledged was counted.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ClickResult } from '../../engine/wire/api-types.ts';
import { advanceClock, apiAs, dbKinds, freshDatabase, removeDir, serverNow, startServer, tempDataDir, testUser } from './harness.ts';

describe.each(dbKinds)('graceful shutdown on %s', (kind) => {
  const dataDir = tempDataDir();
  let drop: () => Promise<void> = async () => {};
  afterAll(async () => {
    await drop();
    removeDir(dataDir);
  });

  it('loses no acknowledged click across SIGTERM and a restart', async () => {
    const db = await freshDatabase(kind);
    drop = db.drop;
    const first = await startServer({ dataDir, databaseUrl: db.url });
    const users = [1, 2, 3].map((n) => testUser((kind === 'pglite' ? 300 : 310) + n));
    const now = await serverNow(first);
    for (const u of users) await apiAs(first, u, now).status();
    // Ten seconds of tap credit, so the human-rate rule accepts every tap we send.
    await advanceClock(first, 10_000);
    const clockAtStop = await serverNow(first);

    const acknowledged = new Map<number, number>(users.map((u) => [u.id, 0]));
    let answered = 0;
    const stream = async (user: (typeof users)[number]) => {
      const api = apiAs(first, user, clockAtStop);
      for (let seq = 1; seq <= 400; seq++) {
        try {
          const r = await api.call<ClickResult>('POST', '/click', { click: 1, batchId: `sigterm-${user.id}-${seq}`, seq });
          if (r.status !== 200) break;
          acknowledged.set(user.id, (acknowledged.get(user.id) ?? 0) + r.body.accepted);
          answered++;
        } catch {
          break; // connection refused or reset: the server is gone, the click was not acknowledged
        }
      }
    };
    const streams = users.map(stream);
    // Stop once the streams are well under way, with requests in flight.
    while (answered < 30) await new Promise((r) => setTimeout(r, 20));
    const code = await first.stop('SIGTERM');
    await Promise.all(streams);
    expect(code, first.output()).toBe(0);
    expect(first.output()).toMatch(/Stopped \(balancers \d+ ms, background \d+ ms, requests \d+ ms, database \d+ ms\)/);
    expect([...acknowledged.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(30);

    const second = await startServer({ dataDir, databaseUrl: db.url });
    try {
      const later = await serverNow(second);
      for (const u of users) {
        const s = await apiAs(second, u, later).status();
        expect(s.totalClick).toBe(acknowledged.get(u.id));
      }
    } finally {
      await second.stop();
    }
  });
});
