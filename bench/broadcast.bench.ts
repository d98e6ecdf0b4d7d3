/**
 * `npm run bench:broadcast`: how fast the broadcast queue itself goes, with Telegram's 30/s limit
 * lifted. It queues a broadcast to 100,000 players (one statement) and drains 5,000 of them through
 * the worker against the fake Bot API, on PGlite and on PostgreSQL (DATABASE_URL, default the
 * local server). Telegram allows about 30 messages/s, so the queue needs only a fraction of what
 * it can do. Writes the `broadcast` section of bench/RESULTS.md.
 */
import { randomBytes } from 'node:crypto';
import { parseBroadcast } from '../server/bot/broadcast-payload.ts';
import { enqueueBroadcast, broadcastProgress } from '../server/bot/broadcast-store.ts';
import { startBroadcastWorker } from '../server/bot/broadcast-worker.ts';
import { systemClock } from '../server/core/clock.ts';
import { loadConfig } from '../server/background/settings.ts';
import { openDb, type Db } from '../server/core/db/db.ts';
import { startFakeTelegram } from '../server/dev/stand-ins/fake-telegram.ts';
import { benchPgUrl } from './load.ts';
import { writeSection } from './results.ts';

const players = 100_000;
const drained = 5_000;
const token = '7000000010:AAbenchTOKENbenchTOKENbench_brd';

const seed = (db: Db) =>
  db.query(
    `INSERT INTO users (id, refcode, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
     SELECT 8000000000 + i, 'q' || lpad(i::text, 5, '0'), 0, 0, 0, 0 FROM generate_series(0, $1::int - 1) AS i`,
    [players],
  );

interface Row {
  backend: string;
  enqueueMs: number;
  perSecond: number;
  concurrency: number;
}

const run = async (backend: 'pglite' | 'postgres', concurrency: number): Promise<Row> => {
  const config = loadConfig({ BOT_TOKEN: token, NODE_ENV: 'test', ...(backend === 'postgres' ? { DATABASE_URL: benchPgUrl } : {}) });
  const db = await openDb(config, backend === 'postgres' ? { schema: `t_${randomBytes(6).toString('hex')}` } : { inMemory: true });
  const tg = await startFakeTelegram(token);
  try {
    await seed(db);
    const parsed = parseBroadcast({ message: 'bench', btns: [{ btnType: 'url', btnText: 'Open', btnLink: 'https://t.me/money' }] });
    if (!parsed.ok) throw parsed.refusal;
    let t = performance.now();
    const { broadcastId } = await enqueueBroadcast(db, parsed.broadcast, Date.now());
    const enqueueMs = performance.now() - t;
    const worker = startBroadcastWorker({
      db, clock: systemClock, token, apiRoot: tg.apiRoot, ratePerSecond: 100_000, concurrency, leaseMs: 120_000, idlePollMs: 50, timeoutSeconds: 30,
    });
    t = performance.now();
    while (tg.delivered.length < drained) await new Promise((r) => setTimeout(r, 10));
    const seconds = (performance.now() - t) / 1000;
    await worker.stop();
    const p = await broadcastProgress(db, broadcastId);
    if (p === null || p.sent !== tg.delivered.length) throw new Error(`progress ${p?.sent} ≠ delivered ${tg.delivered.length}`);
    return { backend, enqueueMs, perSecond: drained / seconds, concurrency };
  } finally {
    await tg.close();
    await db.close();
  }
};

const rows: Row[] = [];
for (const backend of ['pglite', 'postgres'] as const) {
  for (const concurrency of [1, 4]) {
    try {
      const r = await run(backend, concurrency);
      rows.push(r);
      console.log(`${backend} ×${concurrency}: enqueue ${players} in ${r.enqueueMs.toFixed(0)} ms, ${r.perSecond.toFixed(0)} msg/s`);
    } catch (err) {
      console.error(`${backend}: skipped (${(err as Error).message})`);
    }
  }
}

writeSection(
  'broadcast',
  `## Broadcast queue (\`npm run bench:broadcast\`)

The queue without Telegram's limit: ${players.toLocaleString('en')} recipients queued by one statement, then ${drained.toLocaleString('en')}
drained against the fake Bot API on 127.0.0.1 (claim, send and record per message). Telegram allows about 30 messages/s.

| Storage | Lanes | Queue ${players.toLocaleString('en')} recipients | Drain rate |
|---|---|---|---|
${rows.map((r) => `| ${r.backend} | ${r.concurrency} | ${r.enqueueMs.toFixed(0)} ms | ${r.perSecond.toFixed(0)} msg/s |`).join('\n')}`,
);
