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
 * - device farm: fresh accounts behind one device id, each tapping like a person;
 * - referral ring past $100: a fresh referrer whose 240 fresh invitees, each on its own device id
 *   and with the mini-app's protocol, arrive in waves under the burst count; three in four tap a
 *   little, one in four is nudged just past $100 (what pays the referrer) and then abandoned;
 * - one operator's farm: 40 fresh accounts created in a quarter of an hour through a referral tree
 *   (a root, its invitees, theirs), a fresh device id each, the mini-app's protocol (batch ids,
 *   its clock), all replaying one recorded human-looking session at fixed offsets from each other,
 *   every few hours, with eight hours of "sleep".
 * Honest groups that look alike for real reasons: families of four on one phone, friends who join
 * one referrer within minutes after a post (old and new accounts), a classroom that joins through
 * its teacher and each other within a quarter of an hour and plays in the same break.
 *
 * Reports per kind and per signal how many accounts were flagged, read through the operators' list
 * (GET /public/airdrop/flags, every page) (goal: ≥ 95 % of every farm kind, ≤ 1 % of honest
 * players) and what the job cost. Writes the `integrity` section of RESULTS.md.
 * DATABASE_URL selects PostgreSQL (a fresh schema), else PGlite in memory. `BENCH_SCALE=0.2` runs
 * a fifth of the players (a quick look); the recorded run uses 1.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { apiPrefix, type ClickResult, type UserStatus } from '../engine/wire/api-types.ts';
import { airdropReasonCodes, type AirdropFlag, type AirdropFlagsPage, type AirdropReasonCode } from '../engine/wire/airdrop-review.ts';
import { createApp } from '../server/app.ts';
import { manualClock } from '../server/core/clock.ts';
import { loadConfig } from '../server/background/settings.ts';
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
  ringInvitees: Math.round(240 * scale),
  operatorFarm: Math.round(40 * scale),
};
const hourMs = 3_600_000;
const startMs = Date.UTC(2026, 0, 12, 0, 0, 0);
const durationMs = 28 * hourMs;
const botToken = '7000000001:AAbenchTOKENbenchTOKENbench_abc';

const usePg = process.env.DATABASE_URL !== undefined;
const operatorKey = 'bench-operator-key-0123456789';
const config = loadConfig({
  NODE_ENV: 'test',
  BOT_TOKEN: botToken,
  ...(usePg ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  // The bench measures the review, not the overload guard: nothing is shed.
  SHED_EVENT_LOOP_DELAY_MS: '0',
  SHED_QUEUE_DELAY_MS: '0',
  SHED_HEAP_USED_RATIO: '0',
  OPERATOR_API_KEY: operatorKey,
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
type Kind = 'honest' | 'tapFarm' | 'referralFarm' | 'deviceFarm' | 'referralRing' | 'operatorFarm';
interface Player {
  id: number;
  kind: Kind;
  user: TelegramUser;
  /** Sent as x-device-id, or null (a script that never sends it). */
  device: string | null;
  energy: number;
  energyAtMs: number;
  refcode?: string;
  totalEarn: number;
  /** The device's clock against the simulated one (a phone's clock is never exact). */
  clockSkewMs: number;
  /** For honest players in a group: which (the report counts them apart). */
  group?: 'family' | 'post' | 'classroom';
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
  p.totalEarn = Number(s.totalEarn);
};
/** The energy the app shows now: the last answer plus 1 every 5 s (§9), up to the tank. */
const energyNow = (p: Player) => Math.min(500, p.energy + Math.floor((clock.now() - p.energyAtMs) / 5_000));

/** A batch as the mini-app sends it: a batch id, and its clock at the batch's first tap (firstTapAt, when known). */
const tap = async (p: Player, taps: number, withBatchId = true, firstTapAt?: number) => {
  const clientTime = firstTapAt === undefined || p.device === null ? {} : { firstTapMs: Math.round(firstTapAt + p.clockSkewMs) };
  const r = await call(p, 'POST', '/click', { body: { click: taps, ...(withBatchId ? { batchId: `b${++batchSeq}`, ...clientTime } : {}) } });
  if (r.statusCode === 200) remember(p, r.json<ClickResult>().status);
};

/** Telegram ids: honest players from 2014 to 2025 (old accounts count toward trust), farms from late 2025 (fresh). */
let freshId = 8_700_000_000;
const oldId = () => int(100_000_000, 8_400_000_000);
const join = async (kind: Kind, id: number, premium: boolean, device: string | null): Promise<Player> => {
  const p: Player = {
    id,
    kind,
    user: { id, first_name: `P${id}`, username: `p${id}`, ...(premium ? { is_premium: true } : {}) },
    device,
    energy: 500,
    energyAtMs: clock.now(),
    totalEarn: 0,
    clockSkewMs: Math.round(between(-90_000, 90_000)),
  };
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

// --- how a person taps, batched as the mini-app batches (engine/client/outbox.ts) ------------------------
/** A session's batches: [send time, taps, first tap's time], from bursts of 1.5–6 s at the player's rate, with breaks. */
const humanSession = (start: number, rate: number): [number, number, number][] => {
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
  const batches: [number, number, number][] = [];
  let first = taps[0]!;
  let last = first;
  let n = 0;
  const flush = (sendAt: number) => {
    batches.push([sendAt + between(20, 150), n, first]);
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
  for (const [sendAt, n, firstTap] of batches) {
    at(sendAt, async () => {
      const taps = Math.min(n, energyNow(p));
      if (taps > 0) await tap(p, taps, true, firstTap);
    });
  }
  if (autoClick === null) return;
  // The app left open: the auto-click every 10 s while energy allows (§4).
  const from = batches[batches.length - 1]![0] + 10_000;
  for (let t = from; t < from + autoClick.forMs; t += 10_000) {
    const sendAt = t + between(-80, 80);
    at(sendAt, async () => {
      if (energyNow(p) >= autoClick.size) await tap(p, autoClick.size, true, sendAt - 20);
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
    for (let b = 0; b < 13; b++) at(c + b * 2_000, () => tap(p, 40, true, c + b * 2_000 - 60));
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

// --- farms that read docs/airdrop.md ---------------------------------------------------------------
/** Taps like a person (the mini-app's batches) until the account has earned `dollars`, then stops. */
const tapUntil = (p: Player, from: number, dollars: number) => {
  const rate = between(3, 7);
  const session = (start: number) => {
    const batches = humanSession(start, rate);
    batches.forEach(([sendAt, n, firstTap], i) =>
      at(sendAt, async () => {
        if (p.totalEarn >= dollars) return;
        const taps = Math.min(n, energyNow(p), Math.max(1, Math.ceil(dollars - p.totalEarn)));
        if (taps > 0) await tap(p, taps, true, firstTap);
        // Not there yet at the session's end: another once the tank refilled.
        if (i === batches.length - 1 && p.totalEarn < dollars) session(clock.now() + between(45, 60) * 60_000);
      }),
    );
  };
  session(from);
};

// Referral ring past $100: a fresh referrer at a level that takes its invitees; waves of fresh
// invitees under the burst count, each on its own device with the app's protocol; three in four
// tap a little, one in four is nudged just past $100 (what pays the referrer), then abandoned.
const ringReferrer = await join('referralRing', freshId++, false, newDevice());
await db.query('UPDATE users SET ref_level = 7 WHERE id = $1', [ringReferrer.id]);
schedulePerson(ringReferrer, startMs, [2, 4]);
for (let i = 0; i < counts.ringInvitees; i++) {
  const wave = Math.floor(i / 20);
  const joinAt = startMs + 30 * 60_000 + wave * 35 * 60_000 + between(0, 12 * 60_000);
  const id = freshId++;
  at(joinAt, async () => {
    const p = await join('referralRing', id, false, newDevice());
    await call(p, 'POST', '/referral', { query: { refcode: ringReferrer.refcode! } });
    tapUntil(p, clock.now() + between(10_000, 120_000), i % 4 === 3 ? between(101, 115) : between(20, 80));
  });
}

// One operator's farm: a referral tree created in a quarter of an hour (a root, its invitees,
// theirs), a fresh device id each, the app's protocol; every account replays one recorded
// human-looking session, the accounts at fixed offsets, every 3 hours with 8 hours of sleep.
const recorded = humanSession(0, 5).filter(([, n]) => n > 0);
let recordedTaps = 0;
const script = recorded.filter(([, n]) => (recordedTaps += n) <= 450);
const operator: Player[] = [];
const treeStart = startMs + 2 * hourMs;
for (let i = 0; i < counts.operatorFarm; i++) {
  const joinAt = treeStart + i * between(15, 25) * 1_000;
  const id = freshId++;
  const k = i;
  at(joinAt, async () => {
    const p = await join('operatorFarm', id, false, newDevice());
    operator[k] = p;
    // The tree: account k is invited by account ⌊(k − 1) / 3⌋ (the root has none).
    if (k > 0) await call(p, 'POST', '/referral', { query: { refcode: operator[Math.floor((k - 1) / 3)]!.refcode! } });
    for (let cycle = treeStart + 30 * 60_000; cycle < startMs + durationMs; cycle += 3 * hourMs) {
      const hourOfDay = ((cycle - startMs) / hourMs) % 24;
      if (hourOfDay >= 16 && hourOfDay < 24) continue;
      const start = cycle + k * 90_000;
      for (const [sendAt, n, firstTap] of script) {
        at(start + sendAt, async () => {
          const taps = Math.min(n, energyNow(p));
          if (taps > 0) await tap(p, n, true, start + firstTap);
        });
      }
    }
  });
}

// --- honest groups that look alike for real reasons ------------------------------------------------
// Families of four on one phone: the phone goes round, each plays as themselves.
for (let f = 0; f < Math.max(1, Math.round(3 * scale)); f++) {
  const phone = newDevice();
  for (let m = 0; m < 4; m++) {
    const p = await join('honest', oldId(), rnd() < 0.2, phone);
    p.group = 'family';
    schedulePerson(p, startMs, [1, 3]);
  }
}
// Friends who join one referrer within minutes after a post: old and new accounts, most play.
const poster = honest[honest.length - 1]!;
await db.query('UPDATE users SET ref_level = 5 WHERE id = $1', [poster.id]);
const postAt = startMs + 9 * hourMs;
for (let i = 0; i < Math.round(22 * scale); i++) {
  at(postAt + between(0, 8 * 60_000), async () => {
    const p = await join('honest', rnd() < 0.3 ? freshId++ : oldId(), rnd() < 0.2, newDevice());
    p.group = 'post';
    await call(p, 'POST', '/referral', { query: { refcode: poster.refcode! } });
    if (rnd() < 0.75) schedulePerson(p, clock.now() + 60_000, [1, 4]);
  });
}
// A classroom: the teacher invites a few pupils, who invite the others, within a quarter of an hour;
// new and old accounts; they play in the same break, and after school each on their own.
const teacher = honest[honest.length - 2]!;
await db.query('UPDATE users SET ref_level = 5 WHERE id = $1', [teacher.id]);
const pupils: Player[] = [];
const classAt = startMs + 8 * hourMs;
for (let i = 0; i < Math.round(28 * scale); i++) {
  const k = i;
  at(classAt + k * between(15, 35) * 1_000, async () => {
    const p = await join('honest', rnd() < 0.5 ? freshId++ : oldId(), false, newDevice());
    p.group = 'classroom';
    pupils[k] = p;
    const inviter = k < 4 ? teacher : pupils[Math.floor(rnd() * 4)]!;
    await call(p, 'POST', '/referral', { query: { refcode: inviter.refcode! } });
    const rate = between(3, 9);
    for (const brk of [classAt + hourMs, classAt + 3 * hourMs]) playSession(p, brk + between(0, 90_000), rate, null);
    schedulePerson(p, classAt + 5 * hourMs, [1, 3]);
  });
}

// The signals job, every INTEGRITY_JOB_MS of the clock, as the scheduler runs it.
const jobRuns: number[] = [];
let folded = 0;
let groupMs = 0;
const runJob = async () => {
  const t = performance.now();
  const run = await refreshIntegrity(db, clock.now(), rules);
  folded += run.batches;
  groupMs += run.groupMs;
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
const byKind: Record<Kind, Tally> = { honest: tally(), tapFarm: tally(), referralFarm: tally(), deviceFarm: tally(), referralRing: tally(), operatorFarm: tally() };
const byGroup: Record<'family' | 'post' | 'classroom', Tally> = { family: tally(), post: tally(), classroom: tally() };
const flaggedHonest: string[] = [];
// Judged through the operators' list: every page of GET /public/airdrop/flags, under review.
const listed = new Map<string, AirdropFlag>();
for (let cursor: string | null = null, pages = 0; pages === 0 || cursor !== null; pages++) {
  const r: { statusCode: number; body: string; json: <T>() => T } = await app.inject({ method: 'GET', url: `${apiPrefix}/public/airdrop/flags`, query: { limit: '100', state: 'review', ...(cursor === null ? {} : { cursor }) }, headers: { 'x-api-key': operatorKey } });
  if (r.statusCode !== 200) throw new Error(`flags: ${r.statusCode} ${r.body}`);
  const page: AirdropFlagsPage = r.json<AirdropFlagsPage>();
  for (const f of page.items) listed.set(f.userId, f);
  cursor = page.nextCursor;
}
for (const p of players) {
  const flag = listed.get(String(p.id));
  const t = byKind[p.kind];
  t.accounts++;
  if (p.group !== undefined) byGroup[p.group].accounts++;
  if (flag !== undefined) {
    t.flagged++;
    if (p.group !== undefined) byGroup[p.group].flagged++;
    if (p.kind === 'honest') flaggedHonest.push(`${p.id}${p.group ? ` (${p.group})` : ''}: ${flag.reasons.join(', ')}`);
  }
  // Every reason the job found, flagged or not (the state shows reasons only while not clear).
  const r = await db.query<{ reasons: string[] }>('SELECT reasons FROM integrity_players WHERE user_id = $1', [p.id]);
  for (const code of r.rows[0]?.reasons ?? []) {
    t.reasons[code as AirdropReasonCode]++;
    if (p.group !== undefined) byGroup[p.group].reasons[code as AirdropReasonCode]++;
  }
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
const farmKinds: Kind[] = ['tapFarm', 'referralFarm', 'deviceFarm', 'referralRing', 'operatorFarm'];
const farmAccounts = farmKinds.reduce((s, k) => s + byKind[k].accounts, 0);
const farmFlagged = farmKinds.reduce((s, k) => s + byKind[k].flagged, 0);
const label: Record<Kind, string> = {
  honest: 'honest players (all)',
  tapFarm: 'tap farm',
  referralFarm: 'referral farm (referrer + invitees)',
  deviceFarm: 'device farm',
  referralRing: 'referral ring past $100 (referrer + invitees)',
  operatorFarm: "one operator's farm (a referral tree)",
};
const groupLabel = { family: '… of them families of four on one phone', post: '… friends who joined after a post', classroom: '… a classroom' } as const;
const signals = airdropReasonCodes.filter((c) => Object.values(byKind).some((t) => t.reasons[c] > 0));
const rowOf = (name: string, t: Tally) => `| ${name} | ${t.accounts} | ${t.flagged} (${pct(t.flagged, t.accounts)}) | ${signals.map((c) => t.reasons[c]).join(' | ')} |`;
const rows = [
  ...(Object.keys(byKind) as Kind[]).map((k) => rowOf(label[k], byKind[k])),
  ...(Object.keys(byGroup) as (keyof typeof byGroup)[]).map((g) => rowOf(groupLabel[g], byGroup[g])),
];
const sortedRuns = [...jobRuns].sort((a, b) => a - b);
const jobTotalS = jobRuns.reduce((s, x) => s + x, 0) / 1000;
const farmOk = farmKinds.every((k) => byKind[k].flagged >= 0.95 * byKind[k].accounts);
const worstFarm = farmKinds.map((k) => ({ k, share: byKind[k].flagged / Math.max(1, byKind[k].accounts) })).sort((a, b) => a.share - b.share)[0]!;
const honestOk = byKind.honest.flagged <= 0.01 * byKind.honest.accounts;
const markdown = `## integrity (\`npm run bench:integrity\`)

${players.length} players play ${durationMs / hourMs} hours through the real API (createApp + inject, ${usePg ? 'PostgreSQL' : 'PGlite'}, a stepped clock; ${requests} requests, ${refused} refused), the signals job runs every ${rules.jobEveryMs / 60_000} minutes of that clock, and the operators' list (\`GET /public/airdrop/flags\`, every page, state review) says who is flagged. Default thresholds (docs/airdrop.md "Integrity review"). Each cell of a signal counts the accounts it found, whether or not they ended flagged.

| Kind | Accounts | Flagged | ${signals.join(' | ')} |
|---|---|---|${signals.map(() => '---|').join('')}
${rows.join('\n')}

**Farm accounts flagged: ${farmFlagged} of ${farmAccounts} (${pct(farmFlagged, farmAccounts)}); the least caught kind, ${label[worstFarm.k]}, ${(worstFarm.share * 100).toFixed(1)} % (goal ≥ 95 % of every kind: ${farmOk ? 'met' : 'NOT met'}). Honest players flagged: ${byKind.honest.flagged} of ${byKind.honest.accounts} (${pct(byKind.honest.flagged, byKind.honest.accounts)}; goal ≤ 1 %: ${honestOk ? 'met' : 'NOT met'}).**${flaggedHonest.length > 0 ? `\n\nHonest players flagged: ${flaggedHonest.join('; ')}.` : ''}

The job: ${jobRuns.length} runs folded ${folded} click batches in ${jobTotalS.toFixed(1)} s in all (median ${sortedRuns[Math.floor(sortedRuns.length / 2)]!.toFixed(0)} ms, max ${sortedRuns[sortedRuns.length - 1]!.toFixed(0)} ms a run; the group signals ${(groupMs / 1000).toFixed(1)} s of it). The whole run took ${playS.toFixed(0)} s on this 2-core machine (load ${loadBefore} at the start).

The farms are the ones the brief names; docs/airdrop.md "What a farmer who knows these rules could still do" lists what they would do instead, and what it leaves them.`;
console.log(markdown);
writeSection('integrity', markdown);
await app.close();
await db.close();
