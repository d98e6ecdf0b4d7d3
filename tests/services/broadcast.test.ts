import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../server/core/clock.ts';
import { startBroadcastWorker, type BroadcastWorker } from '../../server/bot/broadcast-worker.ts';
import type { BroadcastProgress } from '../../server/bot/broadcast-store.ts';
import type { Db } from '../../server/core/db/db.ts';
import { startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { backends, botToken, openServicesHarness, type ServicesHarness, waitFor } from './harness.ts';

const apiKey = 'broadcast-key-for-tests';
const keyHeader = { 'x-api-key': apiKey };

/** Real time plus a jump the test controls, so a lease can expire at once. */
const jumpClock = () => {
  let offset = 0;
  const clock: Clock & { jump(ms: number): void } = { now: () => Date.now() + offset, jump: (ms) => void (offset += ms) };
  return clock;
};

/** Inserts `n` players directly (the broadcast goes to every row of users). */
const addUsers = async (db: Db, firstId: number, n: number): Promise<number[]> => {
  await db.query(
    `INSERT INTO users (id, refcode, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
     SELECT $1::bigint + i, 'b' || lpad(i::text, 5, '0'), 0, 0, 0, 0 FROM generate_series(0, $2::int - 1) AS i`,
    [firstId, n],
  );
  return Array.from({ length: n }, (_, i) => firstId + i);
};

describe.each(backends)('broadcast (%s)', (backend) => {
  let h: ServicesHarness;
  const workers: BroadcastWorker[] = [];
  const fakes: FakeTelegram[] = [];
  const worker = (tg: FakeTelegram, clock: Clock, opts: { ratePerSecond?: number; leaseMs?: number; concurrency?: number } = {}) => {
    const w = startBroadcastWorker({
      db: h.db,
      clock,
      token: botToken,
      apiRoot: tg.apiRoot,
      ratePerSecond: opts.ratePerSecond ?? 1_000,
      concurrency: opts.concurrency ?? 4,
      leaseMs: opts.leaseMs ?? 60_000,
      idlePollMs: 50,
      timeoutSeconds: 30,
    });
    workers.push(w);
    return w;
  };
  const fake = async () => {
    const tg = await startFakeTelegram(botToken);
    fakes.push(tg);
    return tg;
  };
  const send = (body: unknown, headers: Record<string, string> = keyHeader) => h.call('POST', '/public/send-telemss', null, { body, headers });
  const progress = async (id: number) => {
    const r = await h.call('GET', `/public/send-telemss/${id}`, null, { headers: keyHeader });
    expect(r.statusCode).toBe(200);
    return r.json<BroadcastProgress>();
  };

  beforeAll(async () => {
    h = await openServicesHarness(backend, { BROADCAST_API_KEY: apiKey });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop({ deadlineMs: 100 })));
    await Promise.all(fakes.splice(0).map((f) => f.close()));
    await h.db.query('DELETE FROM broadcast_recipients');
    // The pace and a 429 pause are shared by every process of the bot; each test starts afresh.
    await h.db.query('DELETE FROM send_pace');
    await h.db.query('DELETE FROM broadcasts');
    await h.db.query('DELETE FROM users');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('needs the x-api-key and a valid body, and queues nothing otherwise', async () => {
    const good = { message: 'Hello', btns: [{ btnType: 'url', btnText: 'Open', btnLink: 'https://t.me/money' }] };
    const missing = await send(good, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('x-api-key');
    expect((await send(good, { 'x-api-key': 'wrong' })).statusCode).toBe(401);
    const cases: [unknown, string][] = [
      [{ btns: [] }, 'message'],
      [{ message: '' }, 'message'],
      [{ message: 'x'.repeat(4097) }, 'message'],
      [{ message: 'hi', btns: 'no' }, 'btns'],
      [{ message: 'hi', btns: [{ btnType: 'phone', btnText: 'a', btnLink: 'https://a.example' }] }, 'btns[0].btnType'],
      [{ message: 'hi', btns: [{ btnType: 'url', btnText: '', btnLink: 'https://a.example' }] }, 'btns[0].btnText'],
      [{ message: 'hi', btns: [good.btns[0], { btnType: 'web_app', btnText: 'Play', btnLink: 'http://a.example' }] }, 'btns[1].btnLink'],
    ];
    for (const [body, field] of cases) {
      const r = await send(body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().field).toBe(field);
    }
    expect((await h.db.query('SELECT 1 FROM broadcasts')).rows).toHaveLength(0);
    expect((await h.call('GET', '/public/send-telemss/1', null, { headers: keyHeader })).statusCode).toBe(404);
    // An id past BIGINT is a 400 naming it, not a 500 from the query.
    const huge = await h.call('GET', '/public/send-telemss/99999999999999999999', null, { headers: keyHeader });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().field).toBe('broadcastId');
  });

  it('reaches each of 1,000 users exactly once across a restart and a crash, honouring 429', async () => {
    const users = await addUsers(h.db, 9_100_000_000, 1_000);
    const blocked = [users[10]!, users[20]!];
    const clock = jumpClock();
    const t1 = await fake();
    t1.settings.rateLimit = { everyN: 300, retryAfterS: 1 };
    for (const b of blocked) t1.settings.blocked.add(b);

    const queued = await send({ message: 'Airdrop news', btns: [{ btnType: 'web_app', btnText: 'Play', btnLink: 'https://money.example/app' }] });
    expect(queued.statusCode).toBe(202);
    const { broadcastId, total } = queued.json<{ broadcastId: number; total: number }>();
    expect(total).toBe(1_000);

    // 1. A graceful restart: worker A stops mid-way; what it sent is recorded.
    const a = worker(t1, clock);
    await waitFor(() => t1.delivered.length >= 350, '350 deliveries');
    await a.stop();
    const afterA = await progress(broadcastId);
    expect(afterA.remaining).toBeGreaterThan(0);
    expect(afterA.sent).toBe(t1.delivered.length);

    // 2. A crash: worker B's messages are delivered but the answers never come back; B dies.
    t1.settings.holdFromDelivery = t1.delivered.length + 100;
    const b = worker(t1, clock);
    await waitFor(() => t1.held === 4, 'four sends in the crash window');
    await b.stop({ deadlineMs: 50 });
    await t1.close();

    // 3. After the lease, worker C marks B's four as uncertain (never re-sent) and finishes.
    const t2 = await fake();
    for (const id of blocked) t2.settings.blocked.add(id);
    clock.jump(60_001);
    worker(t2, clock);
    await waitFor(async () => (await progress(broadcastId)).remaining === 0, 'the broadcast to finish');

    const all = [...t1.delivered, ...t2.delivered].map((m) => Number(m.chat_id));
    const counts = new Map<number, number>();
    for (const id of all) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(counts.size).toBe(998);
    for (const id of users) expect(counts.get(id) ?? 0).toBe(blocked.includes(id) ? 0 : 1);
    expect(t1.rateLimited).toBeGreaterThan(0);

    const done = await progress(broadcastId);
    expect(done).toMatchObject({ total: 1_000, sent: 994, failed: 2, uncertain: 4, remaining: 0 });
    expect(done.finishedAtMs).not.toBeNull();
    const m = t2.delivered[0]!;
    expect(m.text).toBe('Airdrop news');
    expect(m.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Play', web_app: { url: 'https://money.example/app' } }]] });
  }, 180_000); // 1,000 sends with two database commits each, on a shared 2-core machine

  it('waits out retry_after before sending again', async () => {
    await addUsers(h.db, 9_200_000_000, 6);
    const tg = await fake();
    tg.settings.rateLimit = { everyN: 3, retryAfterS: 1 };
    const { broadcastId } = (await send({ message: 'slow down' })).json<{ broadcastId: number }>();
    // One lane, so no other request is on the wire when the 429 comes back.
    worker(tg, jumpClock(), { ratePerSecond: 1_000, concurrency: 1 });
    await waitFor(async () => (await progress(broadcastId)).remaining === 0, 'the broadcast to finish');
    expect(tg.delivered).toHaveLength(6);
    expect(tg.rateLimitedAt.length).toBeGreaterThanOrEqual(2);
    // Nothing arrived while Telegram asked us to wait (5 ms for clock granularity).
    for (const at of tg.rateLimitedAt) {
      expect(tg.delivered.filter((d) => d.at > at && d.at < at + 1_000 - 5)).toHaveLength(0);
    }
  });

  it('stops at once during a long retry_after, leaving the rest queued', async () => {
    await addUsers(h.db, 9_400_000_000, 3);
    const tg = await fake();
    tg.settings.rateLimit = { everyN: 1, retryAfterS: 600 };
    const { broadcastId } = (await send({ message: 'paused' })).json<{ broadcastId: number }>();
    const w = worker(tg, jumpClock());
    await waitFor(() => tg.rateLimited > 0, 'a 429');
    // Without a deadline: stop() must not wait out the 10-minute pause (the test would time out).
    await w.stop();
    const p = await progress(broadcastId);
    expect(p).toMatchObject({ sent: 0, failed: 0, uncertain: 0, remaining: 3 });
    const rows = await h.db.query<{ status: string }>('SELECT status FROM broadcast_recipients WHERE broadcast_id = $1', [broadcastId]);
    expect(rows.rows.every((r) => r.status === 'pending')).toBe(true);
  });

  it('keeps under the configured rate', async () => {
    await addUsers(h.db, 9_300_000_000, 45);
    const tg = await fake();
    const { broadcastId } = (await send({ message: 'paced' })).json<{ broadcastId: number }>();
    worker(tg, jumpClock(), { ratePerSecond: 30 });
    await waitFor(async () => (await progress(broadcastId)).remaining === 0, 'the broadcast to finish');
    const times = tg.delivered.map((d) => d.at).sort((x, y) => x - y);
    expect(times).toHaveLength(45);
    // At most 30 in any one-second window (+ the lanes' requests that may land together).
    for (const [i, t] of times.entries()) expect(times.slice(i).filter((x) => x < t + 1_000).length).toBeLessThanOrEqual(30 + 4);
  });
});
