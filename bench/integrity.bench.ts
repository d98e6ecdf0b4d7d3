/**
 * `npm run bench:integrity`: the airdrop's integrity review against farms (docs/airdrop.md
 * "Integrity review"). Honest-like players and three kinds of farm play a day and a few hours
 * through the real API (createApp + inject, the real click path, a stepped clock), the signals job
 * runs every INTEGRITY_JOB_MS of that clock as the scheduler would, and at the end each player's
 * status (GET, the real route) says whether they are flagged and why. Default thresholds.
 *
 * - honest: bursty human tapping as the mini-app batches it (300 ms after the last tap, at most
 *   1 s after the first), breaks and pauses, 2–4 sessions a day and 6–9 hours of sleep, some apps
 *   left open (auto-clicks every 10 s), a few families of two on one device, referrers with a few
 *   friends (some of whom never play), old and new accounts, some Premium;
 * - tap farm: fresh accounts, each with its own device id sent like the mini-app's, tapping at the
 *   human-rate cap (40 taps every 2 s) until the tank is empty, then again when it is full, day
 *   and night, with machine regularity;
 * - referral farm: a fresh referrer whose fresh invitees arrive in bursts, tap a little through a
 *   script and never reach $100;
 * - device farm: fresh accounts behind one device id, each tapping like a person.
 *
 * Reports per kind and per signal how many accounts were flagged (goal: ≥ 95 % of farm accounts,
 * ≤ 1 % of honest players) and what the job cost. Writes the `integrity` section of RESULTS.md.
 * DATABASE_URL selects PostgreSQL (a fresh schema), else PGlite in memory. `BENCH_SCALE=0.2` runs
 * a fifth of the players (a quick look); the recorded run uses 1.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { apiPrefix, type ClickResult, type UserStatus } from '../engine/api-types.ts';
import { airdropReasonCodes, type AirdropReasonCode } from '../engine/airdrop-review.ts';
import { createApp } from '../server/app.ts';
import { manualClock } from '../server/core/clock.ts';
import { loadConfig } from '../server/core/config/config.ts';
import { openDb } from '../server/core/db/db.ts';
import { integrityRulesOf } from '../server/integrity/rules.ts';
import { foldLagMs, refreshIntegrity } from '../server/integrity/signals-job.ts';
import { signInitData, type TelegramUser } from '../server/players/init-data.ts';
import { writeSection } from './results.ts';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const counts = {
  honest: Math.round(150 * scale),
  tapFarm: Math.round(30 * scale),
  referralInvitees: Math.round(150 * scale),
  deviceFarm: Math.round(40 * scale),
};
const hourMs = 3_600_000;
const startMs = Date.UTC(2026, 0, 12, 0, 0, 0);
const durationMs = 28 * hourMs;
const botToken = '7000000001:AAbenchTOKENbenchTOKENbench_abc';

const usePg = process.env.DATABASE_URL !== undefined;
const config = loadConfig({
  NODE_ENV: 'test',
  BOT_TOKEN: botToken,
  ...(usePg ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  // The bench measures the review, not the overload guard: nothing is shed.
  SHED_EVENT_LOOP_DELAY_MS: '0',
  SHED_QUEUE_DELAY_MS: '0',
  SHED_HEAP_USED_RATIO: '0',
});
const rules = integrityRulesOf(config);
const db = await openDb(config, usePg ? { schema: `t_integrity_${randomBytes(4).toString('hex')}` } : { inMemory: true });
const clock = manualClock(startMs);
const app = await createApp({ db, config, clock });

// --- a seeded random source, so every run plays the same game -------------------------------------
let seed = 20_260_112;
const rnd = (): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const between = (a: number, b: number) => a + rnd() * (b - a);
const int = (a: number, b: number) => Math.floor(between(a, b + 1));
const newDevice = () => Buffer.from(Array.from({ length: 16 }, () => int(0, 255))).toString('base64url');

// --- players and the calls they make --------------------------------------------------------------
type Kind = 'honest' | 'tapFarm' | 'referralFarm' | 'deviceFarm';
interface Player {
  id: number;
  kind: Kind;
  user: TelegramUser;
  /** Sent as x-device-id, or null (a script that never sends it). */
  device: string | null;
  energy: number;
  energyAtMs: number;
  refcode?: string;
}
const players: Player[] = [];
let batchSeq = 0;
let requests = 0;
let refused = 0;

const call = async (p: Player, method: 'GET' | 'POST', path: string, opts: { body?: object; query?: Record<string, string>; batch?: boolean } = {}) => {
  requests++;
  const r = await app.inject({
    method,
    url: `${apiPrefix}${path}`,
    ...(opts.query ? { query: opts.query } : {}),
    headers: { authorization: `tma ${signInitData(botToken, { user: p.user }, clock.now())}`, ...(p.device !== null ? { 'x-device-id': p.device } : {}) },
    ...(opts.body ? { payload: opts.body } : {}),
  });
  if (r.statusCode !== 200) refused++;
  return r;
};

const remember = (p: Player, s: UserStatus) => {
  p.energy = s.availableEnergy;
  p.energyAtMs = clock.now();
  p.refcode = s.refcode;
};
/** The energy the app shows now: the last answer plus 1 every 5 s (§9), up to the tank. */
const energyNow = (p: Player) => Math.min(500, p.energy + Math.floor((clock.now() - p.energyAtMs) / 5_000));

const tap = async (p: Player, taps: number, withBatchId = true) => {
  const r = await call(p, 'POST', '/click', { body: { click: taps, ...(withBatchId ? { batchId: `b${++batchSeq}` } : {}) } });
  if (r.statusCode === 200) remember(p, r.json<ClickResult>().status);
};

/** Telegram ids: honest players from 2014 to 2025 (old accounts count toward trust), farms from late 2025 (fresh). */
let freshId = 8_700_000_000;
const oldId = () => int(100_000_000, 8_400_000_000);
const join = async (kind: Kind, id: number, premium: boolean, device: string | null): Promise<Player> => {
  const p: Player = { id, kind, user: { id, first_name: `P${id}`, username: `p${id}`, ...(premium ? { is_premium: true } : {}) }, device, energy: 500, energyAtMs: clock.now() };
  const r = await call(p, 'GET', '');
  if (r.statusCode !== 200) throw new Error(`could not create ${kind} ${id}: ${r.statusCode} ${r.body}`);
  remember(p, r.json<UserStatus>());
  players.push(p);
  return p;
};

// --- the event queue: everything happens in time order on the stepped clock ----------------------
interface Event {
  at: number;
  seq: number;
  run: () => Promise<void>;
}
const heap: Event[] = [];
let eventSeq = 0;
const before = (a: Event, b: Event) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
const at = (time: number, run: () => Promise<void>) => {
  if (time > startMs + durationMs) return;
  const e = { at: Math.round(time), seq: eventSeq++, run };
  heap.push(e);
  for (let i = heap.length - 1; i > 0; ) {
    const parent = (i - 1) >> 1;
    if (!before(heap[i]!, heap[parent]!)) break;
    [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
    i = parent;
  }
};
const next = (): Event | undefined => {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length > 0 && last !== undefined) {
    heap[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
  return top;
};

// --- how a person taps, batched as the mini-app batches (engine/outbox.ts) ------------------------
/** A session's batches: [send time, taps], from bursts of 1.5–6 s at the player's rate, with breaks. */
const humanSession = (start: number, rate: number): [number, number][] => {
  const taps: number[] = [];
  const end = start + between(15_000, 60_000);
  for (let t = start; t < end; ) {
    const burstEnd = t + between(1_500, 6_000);
    while (t < burstEnd) {
      taps.push(t);
      t += (1_000 / rate) * between(0.5, 1.5);
    }
    t += rnd() < 0.2 ? between(10_000, 25_000) : between(400, 8_000);
  }
  const batches: [number, number][] = [];
  let first = taps[0]!;
  let last = first;
  let n = 0;
  const flush = (sendAt: number) => {
    batches.push([sendAt + between(20, 150), n]);
    n = 0;
  };
  for (const t of taps) {
    if (n > 0 && (t > last + 300 || t > first + 1_000)) flush(Math.min(last + 300, first + 1_000));
    if (n === 0) first = t;
    n++;
    last = t;
  }
  if (n > 0) flush(Math.min(last + 300, first + 1_000));
  return batches;
};

/** Plays a person's session: each batch no bigger than the energy the app shows (the app's own gate). */
const playSession = (p: Player, start: number, rate: number, autoClick: { size: number; forMs: number } | null) => {
  const batches = humanSession(start, rate);
  for (const [sendAt, n] of batches) {
    at(sendAt, async () => {
      const taps = Math.min(n, energyNow(p));
      if (taps > 0) await tap(p, taps);
    });
  }
  if (autoClick === null) return;
  // The app left open: the auto-click every 10 s while energy allows (§4).
  const from = batches[batches.length - 1]![0] + 10_000;
  for (let t = from; t < from + autoClick.forMs; t += 10_000) {
    at(t + between(-80, 80), async () => {
      if (energyNow(p) >= autoClick.size) await tap(p, autoClick.size);
    });
  }
};

// --- the players ---------------------------------------------------------------------------------
const honest: Player[] = [];
const sharedFamilyDevices: string[] = [];
for (let i = 0; i < counts.honest; i++) {
  // A family of two on one phone now and then (below the shared-device threshold).
  const family = i % 10 === 1 && sharedFamilyDevices.length > 0;
  const device = family ? sharedFamilyDevices.pop()! : newDevice();
  if (i % 10 === 0) sharedFamilyDevices.push(device);
  const p = await join('honest', oldId(), rnd() < 0.2, device);
  honest.push(p);
}
// Honest referrers with a few friends each; the friends join over the day, some never play.
const honestFriends: { referrer: Player; joinAt: number; plays: boolean }[] = [];
for (let i = 0; i < Math.round(counts.honest * 0.15); i++) {
  const referrer = honest[i]!;
  for (let k = int(1, 8); k > 0; k--) honestFriends.push({ referrer, joinAt: startMs + between(0, 20 * hourMs), plays: rnd() < 0.7 });
}
const schedulePerson = (p: Player, from: number, sessionsPerDay: [number, number]) => {
  const rate = between(3, 9);
  const sleepStart = between(20, 26) * hourMs;
  const sleepFor = between(6, 9) * hourMs;
  const autoSize = int(1, 3);
  for (let day = 0; day < 2; day++) {
    const dayStart = startMs + day * 24 * hourMs;
    const wakeAt = dayStart + sleepStart + sleepFor - 24 * hourMs;
    for (let s = int(...sessionsPerDay); s > 0; s--) {
      const sessionAt = wakeAt + between(0, 24 * hourMs - sleepFor - 2 * hourMs);
      if (sessionAt < from) continue;
      playSession(p, sessionAt, rate, rnd() < 0.1 ? { size: autoSize, forMs: between(5, 20) * 60_000 } : null);
    }
  }
};
for (const p of honest) schedulePerson(p, startMs, [2, 4]);
for (const f of honestFriends) {
  at(f.joinAt, async () => {
    const friend = await join('honest', oldId(), rnd() < 0.2, newDevice());
    await call(friend, 'POST', '/referral', { query: { refcode: f.referrer.refcode! } });
    if (f.plays) schedulePerson(friend, clock.now() + 60_000, [2, 4]);
  });
}

// Tap farm: at the cap (40 taps every 2 s) until the tank is empty, again when it is full, day and night.
const tapFarm: Player[] = [];
for (let i = 0; i < counts.tapFarm; i++) tapFarm.push(await join('tapFarm', freshId++, false, newDevice()));
const cycleMs = 500 * 5_000;
for (const p of tapFarm) {
  const offset = between(0, hourMs);
  for (let c = startMs + offset; c < startMs + durationMs; c += cycleMs + 26_000) {
    for (let b = 0; b < 13; b++) at(c + b * 2_000, () => tap(p, 40));
  }
}

// Referral farm: a fresh referrer (at the referral level that takes 200 friends, bought) and bursts of fresh invitees.
const referrer = await join('referralFarm', freshId++, false, newDevice());
await db.query('UPDATE users SET ref_level = 6 WHERE id = $1', [referrer.id]);
schedulePerson(referrer, startMs, [2, 4]);
const bursts = [1, 3, 5];
for (let i = 0; i < counts.referralInvitees; i++) {
  const burst = bursts[i % bursts.length]!;
  const joinAt = startMs + burst * hourMs + between(0, 9 * 60_000);
  const id = freshId++;
  let p: Player | undefined;
  at(joinAt, async () => {
    p = await join('referralFarm', id, false, null);
    await call(p, 'POST', '/referral', { query: { refcode: referrer.refcode! } });
  });
  // A script taps a little (no device id: it is not the mini-app), never $100.
  for (let b = 1; b <= 3; b++) at(joinAt + b * 2_000, () => tap(p!, 10));
}

// Device farm: many fresh accounts behind one device, each tapping like a person.
const farmDevice = newDevice();
for (let i = 0; i < counts.deviceFarm; i++) {
  const p = await join('deviceFarm', freshId++, false, farmDevice);
  schedulePerson(p, startMs, [1, 2]);
}

// The signals job, every INTEGRITY_JOB_MS of the clock, as the scheduler runs it.
const jobRuns: number[] = [];
let folded = 0;
const runJob = async () => {
  const t = performance.now();
  folded += (await refreshIntegrity(db, clock.now(), rules)).batches;
  jobRuns.push(performance.now() - t);
};
for (let t = startMs + rules.jobEveryMs; t <= startMs + durationMs; t += rules.jobEveryMs) at(t, runJob);

// --- play ----------------------------------------------------------------------------------------
const loadBefore = loadavg()[0]!.toFixed(2);
const wall = performance.now();
let lastReport = wall;
for (let e = next(); e !== undefined; e = next()) {
  if (e.at > clock.now()) clock.set(e.at);
  await e.run();
  if (performance.now() - lastReport > 15_000) {
    lastReport = performance.now();
    console.log(`  ${((clock.now() - startMs) / hourMs).toFixed(1)} h played, ${requests} requests, ${((performance.now() - wall) / 1000).toFixed(0)} s`);
  }
}
clock.advance(foldLagMs + 1_000);
await runJob();
const playS = (performance.now() - wall) / 1000;

// --- what each player's status says ---------------------------------------------------------------
interface Tally {
  accounts: number;
  flagged: number;
  reasons: Record<AirdropReasonCode, number>;
}
const tally = (): Tally => ({ accounts: 0, flagged: 0, reasons: Object.fromEntries(airdropReasonCodes.map((c) => [c, 0])) as Record<AirdropReasonCode, number> });
const byKind: Record<Kind, Tally> = { honest: tally(), tapFarm: tally(), referralFarm: tally(), deviceFarm: tally() };
const flaggedHonest: string[] = [];
for (const p of players) {
  const s = (await call(p, 'GET', '')).json<UserStatus>();
  const t = byKind[p.kind];
  t.accounts++;
  if (s.airdropReview.state !== 'clear') {
    t.flagged++;
    if (p.kind === 'honest') flaggedHonest.push(`${p.id}: ${s.airdropReview.reasons.join(', ')}`);
  }
  // Every reason the job found, flagged or not (the state shows reasons only while not clear).
  const r = await db.query<{ reasons: string[] }>('SELECT reasons FROM integrity_players WHERE user_id = $1', [p.id]);
  for (const code of r.rows[0]?.reasons ?? []) t.reasons[code as AirdropReasonCode]++;
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
const farmKinds: Kind[] = ['tapFarm', 'referralFarm', 'deviceFarm'];
const farmAccounts = farmKinds.reduce((s, k) => s + byKind[k].accounts, 0);
const farmFlagged = farmKinds.reduce((s, k) => s + byKind[k].flagged, 0);
const label: Record<Kind, string> = { honest: 'honest players', tapFarm: 'tap farm', referralFarm: 'referral farm (referrer + invitees)', deviceFarm: 'device farm' };
const signals = airdropReasonCodes.filter((c) => Object.values(byKind).some((t) => t.reasons[c] > 0));
const rows = (Object.keys(byKind) as Kind[]).map(
  (k) => `| ${label[k]} | ${byKind[k].accounts} | ${byKind[k].flagged} (${pct(byKind[k].flagged, byKind[k].accounts)}) | ${signals.map((c) => byKind[k].reasons[c]).join(' | ')} |`,
);
const sortedRuns = [...jobRuns].sort((a, b) => a - b);
const jobTotalS = jobRuns.reduce((s, x) => s + x, 0) / 1000;
const farmOk = farmFlagged >= 0.95 * farmAccounts;
const honestOk = byKind.honest.flagged <= 0.01 * byKind.honest.accounts;
const markdown = `## integrity (\`npm run bench:integrity\`)

${players.length} players play ${durationMs / hourMs} hours through the real API (createApp + inject, ${usePg ? 'PostgreSQL' : 'PGlite'}, a stepped clock; ${requests} requests, ${refused} refused), the signals job runs every ${rules.jobEveryMs / 60_000} minutes of that clock, and each player's status says whether they are flagged (under review). Default thresholds (docs/airdrop.md "Integrity review"). Each cell of a signal counts the accounts it found, whether or not they ended flagged.

| Kind | Accounts | Flagged | ${signals.join(' | ')} |
|---|---|---|${signals.map(() => '---|').join('')}
${rows.join('\n')}

**Farm accounts flagged: ${farmFlagged} of ${farmAccounts} (${pct(farmFlagged, farmAccounts)}; goal ≥ 95 %: ${farmOk ? 'met' : 'NOT met'}). Honest players flagged: ${byKind.honest.flagged} of ${byKind.honest.accounts} (${pct(byKind.honest.flagged, byKind.honest.accounts)}; goal ≤ 1 %: ${honestOk ? 'met' : 'NOT met'}).**${flaggedHonest.length > 0 ? `\n\nHonest players flagged: ${flaggedHonest.join('; ')}.` : ''}

The job: ${jobRuns.length} runs folded ${folded} click batches in ${jobTotalS.toFixed(1)} s in all (median ${sortedRuns[Math.floor(sortedRuns.length / 2)]!.toFixed(0)} ms, max ${sortedRuns[sortedRuns.length - 1]!.toFixed(0)} ms a run). The whole run took ${playS.toFixed(0)} s on this 2-core machine (load ${loadBefore} at the start).

The farms are the ones the brief names; docs/airdrop.md "What a farmer who knows these rules could still do" lists what they would do instead, and what it leaves them.`;
console.log(markdown);
writeSection('integrity', markdown);
await app.close();
await db.close();
