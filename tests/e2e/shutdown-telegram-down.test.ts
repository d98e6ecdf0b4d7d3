/**
 * SIGTERM while the Bot API cannot be reached (docs/faults.md "Stopping"): grammY's bot.stop()
 * throws, and still the requests in flight are answered, the database closes and the process
 * exits 0. No request is cut: a click the server took in was answered. A connection still waiting
 * to be accepted when the port closes is reset before the server reads it (a proxy retries it on
 * another process), so the check is on the server's side: no reset click is in the database.
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/api-types.ts';
import { openDb } from '../../server/core/db/db.ts';
import { startFakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { advanceClock, apiAs, removeDir, serverNow, startServer, tempDataDir, testUser } from './harness.ts';

const token = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';

/** An HTTP status, or how the connection failed. */
type Outcome = number | 'refused' | 'reset';

/** One POST on its own connection (no keep-alive). */
const post = (base: string, path: string, auth: string, body: unknown): Promise<Outcome> =>
  new Promise((resolve) => {
    const url = new URL(`${base}${apiPrefix}${path}`);
    const req = request(url, { method: 'POST', agent: false, headers: { authorization: auth, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'reset'));
    req.end(JSON.stringify(body));
  });

describe('SIGTERM with Telegram unreachable', () => {
  const dataDir = tempDataDir();
  afterAll(() => removeDir(dataDir));

  it('answers every request in flight, closes the database and exits 0', async () => {
    const telegram = await startFakeTelegram(token);
    const server = await startServer({ dataDir, env: { BOT_TOKEN: token, BOT_API_ROOT: telegram.apiRoot } });
    try {
      while (!/polling/.test(server.output())) await new Promise((r) => setTimeout(r, 50));
      // Telegram goes away: the next getUpdates, and bot.stop()'s own call, are refused.
      await telegram.close();
      const user = testUser(820);
      const now = await serverNow(server);
      await apiAs(server, user, now).status();
      await advanceClock(server, 10_000);
      const auth = apiAs(server, user, await serverNow(server)).auth;

      const outcomes: { batchId: string; o: Outcome }[] = [];
      let seq = 0;
      const stream = async () => {
        for (;;) {
          seq += 1;
          const batchId = `tg-down-${seq}`;
          const o = await post(server.base, '/click', auth, { click: 1, batchId, seq });
          outcomes.push({ batchId, o });
          if (o !== 200) return;
        }
      };
      const streams = Array.from({ length: 6 }, stream);
      while (outcomes.length < 30) await new Promise((r) => setTimeout(r, 20));
      const code = await server.stop('SIGTERM');
      await Promise.all(streams);
      expect(code, server.output()).toBe(0);
      // The database closed cleanly: it opens again, and holds exactly the answered clicks.
      const db = await openDb({ DATA_DIR: dataDir, DATABASE_URL: undefined }, { migrate: false });
      const stored = new Set((await db.query<{ batch_id: string }>('SELECT batch_id FROM click_batches')).rows.map((r) => r.batch_id));
      await db.close();
      // 200 = counted; 503 = refused while closing (nothing counted); no answer = never read.
      const answered = outcomes.filter((x) => x.o === 200).map((x) => x.batchId);
      expect(answered.length).toBeGreaterThanOrEqual(30);
      expect(answered.filter((id) => !stored.has(id))).toEqual([]);
      expect(outcomes.filter((x) => x.o !== 200 && stored.has(x.batchId)), server.output()).toEqual([]);
      expect(server.output()).toMatch(/bot: stopped uncleanly/);
      expect(server.output()).toMatch(/Stopped \(background \d+ ms, requests \d+ ms, database \d+ ms\)/);
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
