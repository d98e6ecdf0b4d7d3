/**
 * SIGTERM under click load while the Bot API cannot be reached (docs/faults.md "Stopping"), both
 * when it refuses connections and when it accepts them and never answers: grammY's bot.stop()
 * throws or hangs, and still every request sent before the signal gets an HTTP answer, the
 * database closes and the process exits 0. No acknowledged tap is lost, none refused is counted.
 *
 * Clicks come on fresh connections (a proxy opening one per request) and on keep-alive ones (a
 * proxy's pooled upstream connections). A reset, which leaves a client not knowing whether its
 * click counted, must never happen to a request sent before the signal.
 */
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { openDb } from '../../server/core/db/db.ts';
import { startFakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { advanceClock, apiAs, removeDir, serverNow, startServer, tempDataDir, testUser } from './harness.ts';

const token = '7000000001:AAtestTOKENtestTOKENtestTOKEN_abc';

/** An HTTP status, or how the connection failed. */
type Outcome = number | 'refused' | 'reset';

/** One POST, on its own connection (agent: false) or on a keep-alive agent's. */
const post = (base: string, path: string, auth: string, body: unknown, agent: Agent | false): Promise<Outcome> =>
  new Promise((resolve) => {
    const url = new URL(`${base}${apiPrefix}${path}`);
    const req = request(url, { method: 'POST', agent, headers: { authorization: auth, 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED' ? 'refused' : 'reset'));
    req.end(JSON.stringify(body));
  });

describe.each(['refuses connections', 'hangs'] as const)('SIGTERM under click load while the Bot API %s', (mode) => {
  const dataDir = tempDataDir();
  afterAll(() => removeDir(dataDir));

  it('answers every request sent before the signal, closes the database and exits 0', async () => {
    const telegram = await startFakeTelegram(token);
    const server = await startServer({ dataDir, env: { BOT_TOKEN: token, BOT_API_ROOT: telegram.apiRoot } });
    const agents = [0, 1, 2].map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
    try {
      while (!/polling/.test(server.output())) await new Promise((r) => setTimeout(r, 50));
      // Telegram goes away: refused, or every call (the running long poll's next one, bot.stop()'s) hangs.
      if (mode === 'refuses connections') await telegram.close();
      else telegram.settings.delayMs = 3_600_000;
      const user = testUser(mode === 'hangs' ? 821 : 820);
      const now = await serverNow(server);
      await apiAs(server, user, now).status();
      await advanceClock(server, 10_000);
      const auth = apiAs(server, user, await serverNow(server)).auth;

      let signalledAt = Infinity;
      const outcomes: { batchId: string; o: Outcome; sentBeforeSignal: boolean }[] = [];
      let seq = 0;
      const stream = async (agent: Agent | false) => {
        for (;;) {
          seq += 1;
          const batchId = `tg-${mode === 'hangs' ? 'hang' : 'down'}-${seq}`;
          const sentBeforeSignal = performance.now() < signalledAt;
          const o = await post(server.base, '/click', auth, { click: 1, batchId, seq }, agent);
          outcomes.push({ batchId, o, sentBeforeSignal });
          if (typeof o !== 'number') return;
        }
      };
      const streams = [false as const, false as const, false as const, ...agents].map(stream);
      while (outcomes.length < 60) await new Promise((r) => setTimeout(r, 20));
      signalledAt = performance.now();
      const code = await server.stop('SIGTERM');
      await Promise.all(streams);
      expect(code, server.output()).toBe(0);

      const before = outcomes.filter((x) => x.sentBeforeSignal);
      expect(before.length).toBeGreaterThanOrEqual(60);
      // Every request sent before the signal got an HTTP answer: a 200, or a 503 saying try again.
      expect(before.filter((x) => typeof x.o !== 'number'), server.output()).toEqual([]);
      expect(before.filter((x) => x.o !== 200 && x.o !== 503)).toEqual([]);
      // A connection opened after the signal may meet the port as it closes (refused, or reset if
      // the kernel had queued it): such a click is never counted (below), and a balancer that
      // reads /readyz sends none by then.

      // The database closed cleanly: it opens again, and holds exactly the answered clicks.
      const db = await openDb({ DATA_DIR: dataDir, DATABASE_URL: undefined }, { migrate: false });
      const stored = new Set((await db.query<{ batch_id: string }>('SELECT batch_id FROM click_batches')).rows.map((r) => r.batch_id));
      await db.close();
      const answered = outcomes.filter((x) => x.o === 200).map((x) => x.batchId);
      expect(answered.filter((id) => !stored.has(id))).toEqual([]);
      expect(outcomes.filter((x) => x.o !== 200 && stored.has(x.batchId)), server.output()).toEqual([]);
      expect(server.output()).toMatch(/bot: stopped uncleanly/);
      expect(server.output()).toMatch(/Stopped \(balancers \d+ ms, background \d+ ms, requests \d+ ms, database \d+ ms\)/);
    } finally {
      for (const a of agents) a.destroy();
      await server.stop('SIGKILL');
      await telegram.close();
    }
  });
});
