/**
 * The scale section of bench/RESULTS.md (`npm run bench:scale`): every size measured so far (kept
 * in the section as a JSON comment, so a run at one size leaves the others beside it), with this
 * run's sizes replacing theirs. Sizes measured before a figure existed show n/a for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { calls_, durationS, hotTables, inFlight, lastPage, type Call, type Measured, type ServerRun, type SizeResult } from './scale-calls.ts';
import { writeSection } from './results.ts';
import { linkedWallets } from './scale-seed.ts';

const ms = (v: number | null) => (v === null || Number.isNaN(v) ? 'n/a' : !Number.isFinite(v) ? 'never' : v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en'));
const sec = (v: number) => `${(v / 1000).toFixed(1)} s`;
const fmtK = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);
const resultsPath = new URL('./RESULTS.md', import.meta.url);
const dataMark = /<!-- scale-data (.*?) -->/s;

const cpu = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(2));
/** Per request, summed over the calls taken one request each. */
const mixMs = (run: ServerRun, of: (m: Measured) => number | undefined) => calls_.reduce((t, c) => t + (of(run.calls[c.name]!) ?? 0), 0);

/** The read replica's table (`--replica`): per call, each cluster's PostgreSQL CPU per request without the replica's reads and with them. */
const replicaSection = (results: SizeResult[]): string => {
  const withReplica = results.filter((r) => r.runs.replica !== undefined);
  if (withReplica.length === 0) return 'Read replica: not measured yet (`npm run bench:scale -- --players N --replica`).';
  const head = results.flatMap((r) => [`${fmtK(r.players)} primary: alone → + replica`, `${fmtK(r.players)} replica: alone → + replica`, `${fmtK(r.players)} + replica p50 / p99`]);
  const rows = calls_.map((c: Call) => {
    const cells = results.flatMap((r) => {
      const alone = r.runs.postgres.calls[c.name];
      const rep = r.runs.replica?.calls[c.name];
      if (alone === undefined || rep === undefined) return ['n/a', 'n/a', 'n/a'];
      return [`${cpu(alone.primaryCpuMsPerReq)} → ${cpu(rep.primaryCpuMsPerReq)}`, `${cpu(alone.replicaCpuMsPerReq)} → ${cpu(rep.replicaCpuMsPerReq)}`, `${ms(rep.p50)} / ${ms(rep.p99)}`];
    });
    return `| ${c.name} | ${cells.join(' | ')} |`;
  });
  const shares = withReplica.map((r) => {
    const before = mixMs(r.runs.postgres, (m) => m.primaryCpuMsPerReq);
    const after = mixMs(r.runs.replica!, (m) => m.primaryCpuMsPerReq);
    const onReplica = mixMs(r.runs.replica!, (m) => m.replicaCpuMsPerReq);
    const fallbacks = r.runs.replica!.replicaFallbacks ?? 0;
    return `At ${fmtK(r.players)}, over the ${calls_.length} calls taken one request each, the primary's PostgreSQL CPU went from ${before.toFixed(2)} ms to ${after.toFixed(2)} ms with the replica: the replica took ${before > 0 ? Math.round((100 * (before - after)) / before) : 0}% of it off the primary, and spent ${onReplica.toFixed(2)} ms itself (its WAL replay included)${fallbacks > 0 ? `; the reads fell back to the primary ${fallbacks} time(s) during the run` : ', with no fall-back to the primary during the run'}.`;
  });
  return `Read replica (\`--replica\`, on the private primary): a streaming replica of it (\`pg_basebackup -R\` after the seed, the same settings, caught up before the runs), and a third run, "+ replica": the same server with \`DATABASE_REPLICA_URL\` set, its social reads (leaderboard, friends, public stats) on the replica (docs/scaling.md "Read replica"). PostgreSQL CPU per request in ms, of each cluster's own processes (its postmaster and every child, those that ended included; /proc), in the run without the replica's reads → in the "+ replica" run; the replica's CPU in the first is its WAL replay alone:

| call | ${head.join(' | ')} |
|---|${head.map(() => '---|').join('')}
${rows.join('\n')}

${shares.join(' ')}`;
};

/** The sizes measured before (kept in the section), with this run's replacing theirs. */
const merged = (fresh: SizeResult[]): SizeResult[] => {
  const text = existsSync(resultsPath) ? readFileSync(resultsPath, 'utf8') : '';
  const old = dataMark.exec(text);
  const kept: SizeResult[] = old === null ? [] : (JSON.parse(old[1]!) as SizeResult[]);
  const bySize = new Map(kept.map((r) => [r.players, r]));
  for (const r of fresh) bySize.set(r.players, r);
  return [...bySize.values()].sort((a, b) => a.players - b.players);
};

/** Writes the scale section of bench/RESULTS.md from this run's sizes and the ones kept there. */
export const report = (fresh: SizeResult[]): void => {
  const results = merged(fresh);
  const modes = ['postgres', 'redis'] as const;
  const allModes = ['postgres', 'redis', 'replica'] as const;
  const head = results.flatMap((r) => [`${fmtK(r.players)} p50 / p99`, `${fmtK(r.players)} + Redis p50 / p99`]);
  const big = results.at(-1)!;
  const rows = calls_.map((c) => {
    const cells = results.flatMap((r) => modes.map((m) => (r.runs[m].calls[c.name] ? `${ms(r.runs[m].calls[c.name]!.p50)} / ${ms(r.runs[m].calls[c.name]!.p99)}` : 'n/a')));
    const b = big.runs.postgres.calls[c.name]!;
    const bad = results.reduce((t, r) => t + allModes.reduce((u, m) => u + (r.runs[m]?.calls[c.name]?.bad ?? 0), 0), 0);
    const shed = results.reduce((t, r) => t + allModes.reduce((u, m) => u + (r.runs[m]?.calls[c.name]?.shed ?? 0), 0), 0);
    const pgCpu = b.primaryCpuMsPerReq ?? b.pgCpuMsPerReq;
    return `| ${c.name} | ${cells.join(' | ')} | ${Math.round(b.rps).toLocaleString('en')} | ${b.apiCpuMsPerReq.toFixed(2)} | ${pgCpu >= 0 ? pgCpu.toFixed(2) : 'n/a'} | ${bad}${shed > 0 ? ` (${shed} shed)` : ''} |`;
  });
  const seedLines = results.map((r) => {
    const s = r.seed;
    const reminders = s.remindersMs ?? 0;
    return `| ${r.players.toLocaleString('en')} | ${s.workers} | ${sec(s.usersMs)} | ${sec(s.ledgerMs)} | ${sec(s.referralsMs + s.walletsMs)} | ${sec(reminders)} | ${sec(s.indexesMs)} | ${sec(s.vacuumMs)} | **${sec(s.usersMs + s.referralsMs + s.ledgerMs + s.walletsMs + reminders + s.indexesMs + s.vacuumMs)}** | ${sec(s.rankBuildMs)} | ${sec(s.countersMs)} |`;
  });
  const jobLines = results.map((r) => {
    const j = r.jobs;
    return `| ${r.players.toLocaleString('en')} | ${ms(j.rankApply1kMs)} | ${ms(j.rankApply10kMs)} | ${ms(j.redisCatchUp1kMs)} | ${ms(j.redisPublishMs)} | ${ms(j.statsFoldMs)} | ${ms(j.statsRebuildMs)} | ${ms(j.consoleMs)} | ${ms(j.consoleRebuildMs)} | ${ms(j.integrityMs)}${j.integrityGroupMs != null ? ` (groups ${ms(j.integrityGroupMs)})` : ''} | ${ms(j.airdropMs)} (${j.airdropWallets.toLocaleString('en')} wallets) | ${ms(j.reminders1kMs ?? null)} / ${ms(j.reminders10kMs ?? null)} |`;
  });
  // Each job at 0.1% of a core or more, largest first, and all jobs together.
  const share = (run: ServerRun) => {
    const all = Object.values(run.jobShare).reduce((t, f) => t + f, 0);
    const top = Object.entries(run.jobShare).filter(([, f]) => f >= 0.001).sort((a, b) => b[1] - a[1]);
    return `${top.length === 0 ? 'each < 0.1%' : top.map(([job, f]) => `${job} ${(f * 100).toFixed(1)}%`).join(', ')}; all ${(all * 100).toFixed(1)}%`;
  };
  const runLines = results.map(
    (r) =>
      `| ${r.players.toLocaleString('en')} | ${share(r.runs.postgres)} | ${share(r.runs.redis)} | ${ms(r.runs.postgres.stalenessMs)} / ${ms(r.runs.redis.stalenessMs)}${r.runs.replica !== undefined ? ` / ${ms(r.runs.replica.stalenessMs)} (replica)` : ''} | ${r.rowsPerClick.toFixed(2)} | ${Math.round(r.walPerClick).toLocaleString('en')} | ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)} on ${r.cores} cores | shared_buffers ${r.sharedBuffers ?? '128MB'}, autovacuum ${r.autovacuum ? 'on' : 'off'}${r.privateCluster === true ? ', private primary' : ''} | ${r.measuredAt.slice(0, 10)} |`,
  );
  const byteLines = results.map((r) => `| ${r.players.toLocaleString('en')} | ${r.bytes.users} | ${r.bytes.ledger} | ${r.bytes.referrals} | ${r.bytes.ranks} | ${r.bytes.indexes} | ${r.bytes.users + r.bytes.ledger + r.bytes.referrals + r.bytes.ranks} |`);
  const vacLines = results.map((r) => `| ${r.players.toLocaleString('en')}${r.autovacuum === false ? ' (autovacuum off)' : ''} | ${hotTables.map((t) => `${r.vacuum[t]!.before.toLocaleString('en')} → ${r.vacuum[t]!.after.toLocaleString('en')} (${r.vacuum[t]!.runs})`).join(' | ')} |`);
  // The targets at the big size on PostgreSQL alone and with Redis: p99 ≤ 50 ms, /public/stats p99 ≤ 15 ms, no 5xx.
  const target = (c: Call) => (c.name.includes('/public/stats') ? 15 : 50);
  const judged = allModes.filter((m) => big.runs[m] !== undefined);
  const missed = judged.flatMap((m) => calls_.filter((c) => big.runs[m]!.calls[c.name]!.p99 > target(c)).map((c) => `${c.name}${m === 'postgres' ? '' : m === 'redis' ? ' + Redis' : ' + replica'} (${ms(big.runs[m]!.calls[c.name]!.p99)} ms)`));
  const judgedOn = `every p99 ≤ 50 ms, stats ≤ 15 ms, with and without Redis${judged.includes('replica') ? ' and with the replica' : ''}`;
  const verdict =
    missed.length === 0
      ? `Targets at ${fmtK(big.players)} (${judgedOn}): met.`
      : `Targets at ${fmtK(big.players)} (${judgedOn}): **not met** by ${missed.join(', ')}, at a 1-minute load average of ${big.load[0].toFixed(1)} on ${big.cores} shared cores.`;
  writeSection(
    'scale',
    `## Every call at ${results.map((r) => r.players.toLocaleString('en')).join(', ')} players (\`npm run bench:scale -- --players N\`)

Real server (\`server/main.ts\`) on a fresh PostgreSQL database per size (on the shared server, or with \`--private-cluster\` on a private primary initdb'd with ops/postgresql-primary.conf, the settings of a 10M primary: the server-run table says which), ${inFlight} requests in flight (autocannon), ${durationS} s per call after 400 warm-up requests; players spread over the whole table (a different player each request). "+ Redis" is the same database with \`REDIS_URL\` set (ranks from the sorted set that mirrors the ranked view). Latencies in ms. req/s and CPU per request are for ${fmtK(big.players)} without Redis: "API CPU" is the server process (/proc), "PG CPU" every postgres process on the machine (other work on this shared machine adds to it), or where ${fmtK(big.players)} ran on \`--private-cluster\` the private primary's processes alone. "bad" = non-2xx, errors and timeouts over every run; "shed" = of them, 503s of load shedding (SHED_*: the server refuses work while its event loop or queue lags, which a saturated machine causes). The leaderboard's last page is page ${lastPage(big.players).toLocaleString('en')} at ${fmtK(big.players)}. Each size keeps the figures of its last run (the date is in the server-run table).

| call | ${head.join(' | ')} | req/s | API CPU ms/req | PG CPU ms/req | bad |
|---|${head.map(() => '---|').join('')}---|---|---|---|
${rows.join('\n')}

${verdict}

${replicaSection(results)}

Seeding (bench/scale-seed.ts; generate_series in parallel transactions, triggers off, every secondary index built after the load; then the maintained structures from scratch):

| players | workers | users | ledger (3 rows a player) | 20,000 referrals + ${linkedWallets.toLocaleString('en')} wallets | reminders rows | indexes | vacuum analyze | seed total | ranked view, first build | counters from scratch |
|---|---|---|---|---|---|---|---|---|---|---|
${seedLines.join('\n')}

The jobs that grow with players, each timed alone before the server starts (ms). The maintained ones cost what changed: the ranks job applying the marks of 1,000 or 10,000 MONEY changes, the Redis mirror catching up on 1,000, the stats and console folds; beside them what a scan of every player costs (the whole-set copy into Redis, the counters from scratch) and the integrity signals and the airdrop snapshot over the seeded wallets (\`npm run bench:snapshot\` measures 1M wallets). Every player has a reminders row, due later; the reminders job's run is timed with 1,000 and with 10,000 players made due (one run decides at most REMINDERS_BATCH, ${(results.at(-1)!.jobs.remindersBatch ?? 2000).toLocaleString('en')}, oldest first, queuing each into the broadcast queue):

| players | ranks: 1,000 changes | ranks: 10,000 changes | Redis catch-up, 1,000 | Redis whole copy | stats fold | stats from scratch | console job | console from scratch | integrity signals | airdrop snapshot | reminders run: 1,000 / 10,000 due |
|---|---|---|---|---|---|---|---|---|---|---|---|
${jobLines.join('\n')}

While the server ran the calls above: each job's share of one core (money_job_duration_seconds summed over the run ÷ the run's wall time; an upper bound, it includes waits), how long a MONEY change took to show in the player's own rank (committed → GET /leaderboard answers the new rank), and what a click batch writes (rows, and WAL bytes from pg_current_wal_lsn over the click run; the WAL is the whole cluster's, so other work on the machine adds to it):

| players | jobs' share of a core, PostgreSQL | with Redis | rank change visible after, PostgreSQL / Redis (/ replica) (ms) | rows per click batch | WAL bytes per click batch | load average | cluster | measured |
|---|---|---|---|---|---|---|---|---|
${runLines.join('\n')}

Storage, bytes per player (pg_total_relation_size: each table with its indexes and TOAST; "indexes" is every index of these tables):

| players | users | ledger (3 rows) | referrals | ranked view | of which indexes | total |
|---|---|---|---|---|---|---|
${byteLines.join('\n')}

Autovacuum on the hot tables: dead tuples before the first server run → after the last (autovacuum runs in between). Where the cluster runs with \`autovacuum = off\` (a shared development machine), nothing vacuums during the run: the figures are then what the run leaves, and the bench vacuums once after its job timings so the server starts on settled tables:

| players | ${hotTables.join(' | ')} |
|---|${hotTables.map(() => '---|').join('')}
${vacLines.join('\n')}

<!-- scale-data ${JSON.stringify(results)} -->`,
  );
};
