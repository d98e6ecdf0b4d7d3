/**
 * `npm run bench:scale -- --bulk-import --players N --private-cluster`: a million (or ten) players
 * arriving at once (docs/scaling.md "A bulk import"). The players are inserted with plain SQL and
 * every trigger on, as an import from another system, a restore into a new schema or a launch burst
 * looks to the ranks job (bench/scale-seed.ts with `marked`): each is marked, and the ranked view is
 * empty. The database is analysed, the real server started, and from the first second after it
 * answers, every call a player makes is driven with 16 requests in flight (round robin over the
 * calls of bench/scale-calls.ts) until the view holds every player and no mark waits, then for
 * `afterS` more seconds. Written to bench/RESULTS.md, section "scale-import": the time until the
 * view was whole, each call's p50/p99 during the catch-up and after it, the ranks series sampled
 * from /metrics during it, and every answer checked for the promise of docs/scaling.md
 * ("Consistency": an own rank that falls on the page asked for is listed there).
 */
import http from 'node:http';
import { cpus, loadavg } from 'node:os';
import type { LeaderboardEntry, Page } from '../engine/wire/api-types.ts';
import { apiPrefix } from '../engine/wire/api-types.ts';
import type { Db } from '../server/core/db/db.ts';
import { writeSection } from './results.ts';
import { anyPlayer, calls_, inFlight } from './scale-calls.ts';
import { seedPlayers } from './scale-seed.ts';

const afterS = 10;
const dataMark = /<!-- scale-import-data (.*?) -->/s;

interface CallFigures {
  n: number;
  p50: number;
  p99: number;
  max: number;
  bad: number;
}

export interface ImportResult {
  players: number;
  measuredAt: string;
  seedS: number;
  /** From the server answering to the view holding every player with no mark waiting; null when it never did. */
  wholeS: number | null;
  /** How the job caught up: the rebuilds and the applies it logged (from the view's version). */
  versions: number;
  during: Record<string, CallFigures>;
  after: Record<string, CallFigures>;
  /** Answers whose own rank fell on the page asked for without being listed there. */
  broken: number;
  /** The highest money_ranks_marks_waiting and money_ranks_lag_seconds scraped during the catch-up. */
  maxMarks: number;
  maxLagS: number;
  load: [number, number];
  cores: number;
  sharedBuffers: string;
}

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
const figures = (lat: Map<string, number[]>, bad: Map<string, number>): Record<string, CallFigures> =>
  Object.fromEntries(
    calls_.map((c) => {
      const s = (lat.get(c.name) ?? []).sort((a, b) => a - b);
      return [c.name, { n: s.length, p50: Math.round(quantile(s, 0.5)), p99: Math.round(quantile(s, 0.99)), max: Math.round(s.at(-1) ?? 0), bad: bad.get(c.name) ?? 0 }];
    }),
  );

export interface ImportDeps {
  port: number;
  authOf: (id: number) => string;
  metricsText: () => Promise<string>;
  startServer: () => Promise<{ stop: () => Promise<void> }>;
  seedWorkers: number;
}

export const measureImport = async (db: Db, players: number, deps: ImportDeps): Promise<ImportResult> => {
  const load0 = loadavg()[0]!;
  console.log(`${players.toLocaleString('en')} players, bulk-inserted with every trigger on…`);
  const t0 = performance.now();
  await seedPlayers(db, players, Date.now(), deps.seedWorkers, { marked: true });
  await db.exec('ANALYZE');
  const seedS = (performance.now() - t0) / 1000;
  const marks = Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM rank_dirty')).rows[0]!.n);
  console.log(`  seeded and analysed in ${seedS.toFixed(0)} s; ${marks.toLocaleString('en')} marks wait, the view holds ${(await db.query<{ total: number }>('SELECT total FROM rank_meta')).rows[0]!.total}`);
  const v0 = Number((await db.query<{ version: number }>('SELECT version FROM rank_meta')).rows[0]!.version);
  const sharedBuffers = (await db.query<{ b: string }>("SELECT current_setting('shared_buffers') AS b")).rows[0]!.b;

  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const get = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; text: string }>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: deps.port, method, path, headers, agent, timeout: 10_000 }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', () => resolve({ status: 0, text: '' }));
      req.on('timeout', () => req.destroy());
      if (body !== undefined) req.end(body);
      else req.end();
    });

  const server = await deps.startServer();
  const started = performance.now();
  let phase: 'during' | 'after' | 'done' = 'during';
  const current = () => phase;
  const lat = { during: new Map<string, number[]>(), after: new Map<string, number[]>() };
  const bad = { during: new Map<string, number>(), after: new Map<string, number>() };
  let broken = 0;
  /** The bad answers by status (0: no answer in 10 s). */
  const statuses = new Map<number, number>();
  let n = 0;
  let maxMarks = 0;
  let maxLagS = 0;
  let wholeS: number | null = null;
  /** Players and the own rank their last page-1 answer gave: their page is asked next, to check the own entry is listed there. */
  const toFollow: { who: number; rank: number }[] = [];
  try {
    const loops = Array.from({ length: inFlight }, async () => {
      while (phase !== 'done') {
        const i = n++;
        const call = calls_[i % calls_.length]!;
        const isPage1 = call.name.startsWith('GET /leaderboard page 1');
        // Every other page-1 leaderboard call asks for the page a player's last own rank fell on instead.
        const followed = isPage1 && i % 2 === 1 ? toFollow.shift() : undefined;
        const who = followed?.who ?? (call.player ?? anyPlayer)(Math.floor(i / calls_.length), players);
        const path = followed !== undefined ? `${apiPrefix}/leaderboard?page=${Math.ceil(followed.rank / 10)}` : `${apiPrefix}${call.path(i, players)}`;
        const headers: Record<string, string> = { ...(call.auth ? { authorization: deps.authOf(who) } : {}), ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}) };
        const at = phase as 'during' | 'after';
        const q0 = performance.now();
        const r = await get(call.method, path, headers, call.body?.(i));
        const ms = performance.now() - q0;
        if (current() === 'done') break;
        (lat[at].get(call.name) ?? lat[at].set(call.name, []).get(call.name)!).push(ms);
        if (r.status < 200 || r.status >= 300) {
          bad[at].set(call.name, (bad[at].get(call.name) ?? 0) + 1);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        }
        else if (isPage1) {
          const page = JSON.parse(r.text) as Page<LeaderboardEntry>;
          const own = page.items[0]!;
          const from = (page.page - 1) * page.pageSize;
          if (own.rank > from && own.rank <= from + page.pageSize && !page.items.slice(1).some((e) => e.id === own.id && e.rank === own.rank)) broken += 1;
          if (followed === undefined && toFollow.length < 100) toFollow.push({ who, rank: own.rank });
        }
      }
    });
    const watch = (async () => {
      while (phase !== 'done') {
        const text = await deps.metricsText().catch(() => '');
        maxMarks = Math.max(maxMarks, Number(/^money_ranks_marks_waiting (\S+)$/m.exec(text)?.[1] ?? 0));
        maxLagS = phase === 'during' ? Math.max(maxLagS, Number(/^money_ranks_lag_seconds (\S+)$/m.exec(text)?.[1] ?? 0)) : maxLagS;
        if (phase === 'during') {
          const m = (await db.query<{ total: number; waiting: boolean }>('SELECT total, EXISTS (SELECT 1 FROM rank_dirty) AS waiting FROM rank_meta')).rows[0]!;
          if (Number(m.total) === players && !m.waiting) {
            wholeS = (performance.now() - started) / 1000;
            console.log(`  the view holds all ${players.toLocaleString('en')} players ${wholeS.toFixed(1)} s after the server answered`);
            phase = 'after';
            setTimeout(() => (phase = 'done'), afterS * 1000);
          } else if (performance.now() - started > 20 * 60_000) {
            console.log('  the view was not whole after 20 minutes: stopping');
            phase = 'done';
          }
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    await Promise.all([...loops, watch]);
  } finally {
    agent.destroy();
    await server.stop();
  }
  if (statuses.size > 0) console.log(`  bad answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
  const versions = Number((await db.query<{ version: number }>('SELECT version FROM rank_meta')).rows[0]!.version) - v0;
  return {
    players,
    measuredAt: new Date().toISOString(),
    seedS,
    wholeS,
    versions,
    during: figures(lat.during, bad.during),
    after: figures(lat.after, bad.after),
    broken,
    maxMarks,
    maxLagS,
    load: [load0, loadavg()[0]!],
    cores: cpus().length,
    sharedBuffers,
  };
};

/** Writes the section, keeping the other sizes' last figures (a JSON comment in it). */
export const reportImport = (result: ImportResult, readResults: () => string): void => {
  const kept = dataMark.exec(readResults())?.[1];
  const all = [...(kept !== undefined ? (JSON.parse(kept) as ImportResult[]) : []).filter((r) => r.players !== result.players), result].sort((a, b) => a.players - b.players);
  const target = (name: string) => (name.includes('public/stats') ? 15 : 50);
  const rows = calls_.map((c) => {
    const cells = all.map((r) => {
      const d = r.during[c.name]!;
      const a = r.after[c.name]!;
      const mark = d.p99 <= target(c.name) ? '' : ' ✗';
      return `${d.p50} / **${d.p99}**${mark} (${d.n}${d.bad > 0 ? `, ${d.bad} bad` : ''}) | ${a.n === 0 ? '– (never whole)' : `${a.p50} / ${a.p99}`}`;
    });
    return `| ${c.name} (target p99 ≤ ${target(c.name)} ms) | ${cells.join(' | ')} |`;
  });
  writeSection(
    'scale-import',
    `## A bulk import: ${all.map((r) => r.players.toLocaleString('en')).join(', ')} players arriving at once (\`npm run bench:scale -- --bulk-import --players N --only --private-cluster\`)

Players inserted with plain SQL and every trigger on (each one marked for the ranks job, the ranked
view empty), the database analysed, then \`server/main.ts\` started on the private primary
(ops/postgresql-primary.conf) and every call driven, 16 in flight round robin, **from the first
second after it answered** until the view held every player with no mark waiting ("during"), then
${afterS} s more ("after"). p50 / p99 in ms, requests in brackets (docs/scaling.md "A bulk import").

| | ${all.map((r) => `${r.players.toLocaleString('en')} during | after`).join(' | ')} |
|---|${all.map(() => '---|---').join('|')}|
${rows.join('\n')}

| | ${all.map((r) => r.players.toLocaleString('en')).join(' | ')} |
|---|${all.map(() => '---').join('|')}|
| seeded and analysed | ${all.map((r) => `${r.seedS.toFixed(0)} s`).join(' | ')} |
| **view whole after** (bound 60 s) | ${all.map((r) => `**${r.wholeS === null || !Number.isFinite(r.wholeS) ? 'not in 20 min' : `${r.wholeS.toFixed(1)} s`}**`).join(' | ')} |
| versions of the view on the way | ${all.map((r) => r.versions).join(' | ')} |
| answers whose own rank fell on the page asked for, not listed there | ${all.map((r) => r.broken).join(' | ')} |
| highest \`money_ranks_marks_waiting\` / \`money_ranks_lag_seconds\` scraped | ${all.map((r) => `${r.maxMarks.toLocaleString('en')} / ${r.maxLagS.toFixed(1)} s`).join(' | ')} |
| shared_buffers, load average (start → end) on ${all[0]!.cores} cores | ${all.map((r) => `${r.sharedBuffers}, ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`).join(' | ')} |
| measured | ${all.map((r) => r.measuredAt.slice(0, 16).replace('T', ' ')).join(' | ')} |

<!-- scale-import-data ${JSON.stringify(all)} -->`,
  );
};
