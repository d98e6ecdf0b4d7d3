/**
 * `npm run bench:click-write`: the click group's write on PostgreSQL alone, without HTTP or the
 * queue. Two lanes run `applyClicks` (the rule, the one write statement, the answers) back to back
 * on groups of G batches from 10,000 players, for several G. For each G it reports batches/s and
 * the CPU per batch of this process and of every postgres process, then fits both to
 * `per batch + per group ÷ G`: what a batch costs whatever its group, and what each statement costs
 * whatever its size. Writes the `click-write` section of bench/RESULTS.md.
 *
 * bench:server measures the whole route; this one says how much of it is the write, and how much
 * a larger group would save (docs/storage.md, "Click groups").
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { loadConfig } from '../server/background/settings.ts';
import { openDb } from '../server/core/db/db.ts';
import { applyClicks, RowCache } from '../server/clicks/click-group.ts';
import type { Click } from '../server/clicks/click-sql.ts';
import { botToken, firstId, players, seedPlayers, totalClicks } from './click-players.ts';
import { benchPgUrl, postgresCpuMs } from './load.ts';
import { writeSection } from './results.ts';

const lanes = 2;
const sizes = (process.env.BENCH_GROUPS ?? '5,10,37,100,200').split(',').map(Number);
if (sizes.length < 2 || sizes.some((g) => !Number.isInteger(g) || g < 1)) throw new Error('BENCH_GROUPS: at least two group sizes, whole numbers ≥ 1');
// Batches measured at each size (after a warm-up of a tenth of that).
const batchesPerSize = Number(process.env.BENCH_BATCHES ?? 150_000);

interface Row {
  size: number;
  batchesPerS: number;
  /** µs of CPU per batch: this process (user, system) and all postgres processes. */
  nodeUser: number;
  nodeSys: number;
  pg: number;
}

/** Least squares of y = perBatch + perGroup / size over the measured sizes. */
const fit = (rows: readonly Row[], y: (r: Row) => number): { perBatch: number; perGroup: number } => {
  const xs = rows.map((r) => 1 / r.size);
  const ys = rows.map(y);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  const sxy = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0);
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const perGroup = sxy / sxx;
  return { perBatch: my - perGroup * mx, perGroup };
};

const main = async () => {
  const config = loadConfig({ BOT_TOKEN: botToken, NODE_ENV: 'production', DATABASE_URL: benchPgUrl });
  const db = await openDb(config, { schema: `t_bench_${randomBytes(4).toString('hex')}`, poolSize: 4 });
  const loadBefore = loadavg()[0]!;
  const rows: Row[] = [];
  let accepted = 0;
  let clicksBefore = 0;
  try {
    await seedPlayers(db, Date.now());
    const cache = new RowCache(100_000);
    let seq = 0;
    // Players round-robin, so no player is in two groups at once (the batcher's rule) and every
    // player's row is cached after the first pass, as in steady play.
    const lane = async (size: number, groups: number) => {
      for (let g = 0; g < groups; g++) {
        const group: Click[] = Array.from({ length: size }, () => {
          const n = seq++;
          return { userId: firstId + (n % players), click: 1, batchId: `cw${n}` };
        });
        const answers = await applyClicks(db, group, () => Date.now(), cache);
        for (const a of answers) accepted += a.accepted;
      }
    };
    clicksBefore = await totalClicks(db);
    for (const size of sizes) {
      const groups = Math.max(1, Math.round(batchesPerSize / size / lanes));
      await Promise.all(Array.from({ length: lanes }, () => lane(size, Math.ceil(groups / 10))));
      const cpu0 = process.cpuUsage();
      const pg0 = postgresCpuMs();
      const t0 = performance.now();
      await Promise.all(Array.from({ length: lanes }, () => lane(size, groups)));
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const pg = postgresCpuMs() - pg0;
      const n = groups * lanes * size;
      const row = { size, batchesPerS: (n / ms) * 1_000, nodeUser: cpu.user / n, nodeSys: cpu.system / n, pg: (pg * 1_000) / n };
      console.log(row);
      rows.push(row);
    }
    const clicksAfter = await totalClicks(db);
    const stored = Number((await db.query<{ n: string }>("SELECT sum(accepted)::text AS n FROM click_batches WHERE batch_id LIKE 'cw%'")).rows[0]!.n);
    const node = fit(rows, (r) => r.nodeUser + r.nodeSys);
    const pg = fit(rows, (r) => r.pg);
    const f = (x: number) => x.toFixed(1);
    writeSection(
      'click-write',
      `## Click group write alone (\`npm run bench:click-write\`)

Two lanes of \`applyClicks\` on PostgreSQL (the rule on cached rows, the one write statement, the answers; no HTTP, no queue), groups of G batches of 1 tap from ${players.toLocaleString('en')} players round-robin, ${batchesPerSize.toLocaleString('en')} batches at each G. CPU in µs per batch: this process (user + system) and every postgres process. ${cpus().length} cores, 1-minute load average ${loadBefore.toFixed(1)} before and ${loadavg()[0]!.toFixed(1)} after.

| G | batches/s | Node µs per batch (user + system) | PostgreSQL µs per batch |
|---|---|---|---|
${rows.map((r) => `| ${r.size} | ${Math.round(r.batchesPerS)} | ${f(r.nodeUser + r.nodeSys)} (${f(r.nodeUser)} + ${f(r.nodeSys)}) | ${f(r.pg)} |`).join('\n')}

Fitted to \`per batch + per group ÷ G\`: Node **${f(node.perBatch)} µs a batch + ${Math.round(node.perGroup)} µs a group**; PostgreSQL **${f(pg.perBatch)} µs a batch + ${Math.round(pg.perGroup)} µs a statement**. Taps accepted in the answers: ${accepted}; added to totalClick: ${clicksAfter - clicksBefore}; stored in click_batches: ${stored}.`,
    );
    if (clicksAfter - clicksBefore !== accepted || stored !== accepted) throw new Error(`click-write: ${accepted} taps accepted, ${clicksAfter - clicksBefore} in totalClick, ${stored} in click_batches`);
  } finally {
    await db.close();
  }
};

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
