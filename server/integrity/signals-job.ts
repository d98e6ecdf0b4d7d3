/**
 * The integrity signals job (docs/airdrop.md "Integrity review"): once per INTEGRITY_JOB_MS
 * across processes (server/background/jobs.ts), in the scheduler's transaction. Its cost grows
 * with what happened since the last run, never with the number of players:
 * 1. the click batches since the mark (up to foldLagMs before now, a range read on their time
 *    index) are folded into each player's cadence sums (cadence.ts);
 * 2. the players to score again are those who played, those with a new device row and everyone
 *    on that device, the referrers and invitees of new referrals, referrers whose invitees aged
 *    past INTEGRITY_IDLE_AFTER_H or played, and the invitees of a referrer who became, or stopped
 *    being, a referral farm;
 * 3. each is scored (score.ts) from their sums, devices, referrals and trust; the row's state
 *    follows unless an operator decided it; the status's copy on users is written last, only where
 *    it changed, so a player's row is locked for the commit and nothing longer.
 */
import type { Queryable, Db } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import type { Job } from '../core/jobs/job.ts';
import { emptyCadence, foldBatch, type CadenceState } from './cadence.ts';
import type { IntegrityRules } from './rules.ts';
import { isReferralFarm, referrerEvidence, reviewOf, stateOf, type ReferrerFacts } from './score.ts';

/** A click batch committed later than this after its time is not folded in (as the console's aggregates). */
export const foldLagMs = 60_000;
/** The first run reads this far back: click batches are kept 7 days (server/clicks/click-batcher.ts). */
const firstLookbackMs = 7 * 86_400_000;
const sliceMs = 5 * 60_000;
const chunk = 1_000;

export interface IntegrityRunResult {
  fromMs: number;
  toMs: number;
  batches: number;
  scored: number;
  /** Players whose state changed (the status shows it from now on). */
  changed: number;
}

interface PlayerRow {
  user_id: number;
  last_any_ms: number | null;
  last_batch_ms: number | null;
  last_size: number | null;
  win_n: number;
  win_gap_mean: number;
  win_gap_m2: number;
  win_size_mean: number;
  win_size_m2: number;
  windows: number;
  regular_windows: number;
  active_ms: number;
  cap_ms: number;
  stretch_start_ms: number | null;
  longest_stretch_ms: number;
  hour_mark: number | null;
  hours_mask: number;
  max_day_hours: number;
  referral_farm: boolean;
  decision: 'cleared' | 'excluded' | null;
  decided_reasons: string[];
  state: 'clear' | 'review' | 'excluded';
}

const num = (v: number | string | null): number | null => (v === null ? null : Number(v));

const cadenceOf = (r: PlayerRow): CadenceState => ({
  lastAnyMs: num(r.last_any_ms),
  lastBatchMs: num(r.last_batch_ms),
  lastSize: r.last_size,
  winN: r.win_n,
  winGapMean: Number(r.win_gap_mean),
  winGapM2: Number(r.win_gap_m2),
  winSizeMean: Number(r.win_size_mean),
  winSizeM2: Number(r.win_size_m2),
  windows: r.windows,
  regularWindows: r.regular_windows,
  activeMs: Number(r.active_ms),
  capMs: Number(r.cap_ms),
  stretchStartMs: num(r.stretch_start_ms),
  longestStretchMs: Number(r.longest_stretch_ms),
  hourMark: num(r.hour_mark),
  hoursMask: r.hours_mask,
  maxDayHours: r.max_day_hours,
});

const chunksOf = <T>(xs: readonly T[]): T[][] => Array.from({ length: Math.ceil(xs.length / chunk) }, (_, i) => xs.slice(i * chunk, (i + 1) * chunk));

const idsOf = async (q: Queryable, sql: string, params: readonly unknown[]): Promise<number[]> => (await q.query<{ id: number }>(sql, params)).rows.map((r) => Number(r.id));

/** Each referrer's invitee counts, bursts and device sharing (null for a player without invitees). */
const referrerFacts = async (q: Queryable, ids: number[], nowMs: number, rules: IntegrityRules): Promise<Map<number, ReferrerFacts | null>> => {
  const out = new Map<number, ReferrerFacts | null>(ids.map((id) => [id, null]));
  if (ids.length === 0) return out;
  const counts = await q.query<{ id: number; invites: number; aged: number; aged_idle: number; sharing: number }>(
    `SELECT r.referrer_id AS id, count(*)::int AS invites,
            count(*) FILTER (WHERE r.created_at_ms < $2)::int AS aged,
            count(*) FILTER (WHERE r.created_at_ms < $2 AND r.clicked_at_ms IS NULL)::int AS aged_idle,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM integrity_devices d JOIN integrity_devices o ON o.device_id = d.device_id AND o.user_id <> d.user_id
               WHERE d.user_id = r.friend_id AND d.device_id <> ''))::int AS sharing
       FROM referrals r WHERE r.referrer_id = ANY($1::bigint[]) GROUP BY r.referrer_id`,
    [ids, nowMs - rules.idleAfterMs],
  );
  const bursts = await q.query<{ id: number; burst: number }>(
    `SELECT referrer_id AS id, max(n)::int AS burst FROM (
       SELECT referrer_id, count(*) OVER (PARTITION BY referrer_id ORDER BY created_at_ms RANGE BETWEEN $2::bigint PRECEDING AND CURRENT ROW) AS n
         FROM referrals WHERE referrer_id = ANY($1::bigint[])) w
     GROUP BY referrer_id`,
    [ids, rules.burstWindowMs - 1],
  );
  const burstOf = new Map(bursts.rows.map((r) => [Number(r.id), r.burst]));
  for (const r of counts.rows) {
    const id = Number(r.id);
    out.set(id, { invites: r.invites, aged: r.aged, agedIdle: r.aged_idle, sharing: r.sharing, burstMax: burstOf.get(id) ?? 0 });
  }
  return out;
};

/** Runs the signals once, in the caller's transaction; see the file's comment. */
export const runIntegritySignals = async (q: Queryable, nowMs: number, rules: IntegrityRules): Promise<IntegrityRunResult> => {
  await q.query('INSERT INTO integrity_mark (id, mark_ms) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [nowMs - firstLookbackMs]);
  const fromMs = Number((await q.query<{ mark_ms: number }>('SELECT mark_ms FROM integrity_mark WHERE id = 1 FOR UPDATE')).rows[0]!.mark_ms);
  const toMs = nowMs - foldLagMs;
  if (toMs <= fromMs) return { fromMs, toMs: fromMs, batches: 0, scored: 0, changed: 0 };

  // 1. Cadence: the batches since the mark, in time order, into each player's sums.
  const stored = new Map<number, PlayerRow>();
  const cadence = new Map<number, CadenceState>();
  let batches = 0;
  for (let a = fromMs; a < toMs; a += sliceMs) {
    const rows = await q.query<{ user_id: number; created_at_ms: number; requested: number }>(
      'SELECT user_id, created_at_ms, requested FROM click_batches WHERE created_at_ms >= $1 AND created_at_ms < $2 ORDER BY created_at_ms, user_id',
      [a, Math.min(toMs, a + sliceMs)],
    );
    const fresh = [...new Set(rows.rows.map((r) => Number(r.user_id)))].filter((id) => !cadence.has(id));
    for (const ids of chunksOf(fresh)) {
      for (const r of (await q.query<PlayerRow>('SELECT * FROM integrity_players WHERE user_id = ANY($1::bigint[])', [ids])).rows) stored.set(Number(r.user_id), r);
      for (const id of ids) cadence.set(id, stored.has(id) ? cadenceOf(stored.get(id)!) : emptyCadence());
    }
    for (const r of rows.rows) foldBatch(cadence.get(Number(r.user_id))!, Number(r.created_at_ms), r.requested, rules);
    batches += rows.rows.length;
  }

  // 2. Who to score again.
  const toScore = new Set<number>(cadence.keys());
  const add = (ids: number[]) => ids.forEach((id) => toScore.add(id));
  add(
    await idsOf(
      q,
      `SELECT user_id AS id FROM integrity_devices WHERE first_seen_ms >= $1 AND first_seen_ms < $2
       UNION SELECT user_id FROM integrity_devices
        WHERE device_id IN (SELECT device_id FROM integrity_devices WHERE first_seen_ms >= $1 AND first_seen_ms < $2 AND device_id <> '')`,
      [fromMs, toMs],
    ),
  );
  add(
    await idsOf(
      q,
      `SELECT referrer_id AS id FROM referrals WHERE created_at_ms >= $1 AND created_at_ms < $2
       UNION SELECT friend_id FROM referrals WHERE created_at_ms >= $1 AND created_at_ms < $2
       UNION SELECT referrer_id FROM referrals WHERE created_at_ms >= $3 AND created_at_ms < $4`,
      [fromMs, toMs, fromMs - rules.idleAfterMs, toMs - rules.idleAfterMs],
    ),
  );
  for (const ids of chunksOf([...cadence.keys()])) add(await idsOf(q, 'SELECT DISTINCT referrer_id AS id FROM referrals WHERE friend_id = ANY($1::bigint[])', [ids]));

  // Referral farms first: a referrer whose farm status changes has all their invitees scored again.
  const facts = new Map<number, ReferrerFacts | null>();
  const farm = new Map<number, boolean>();
  for (let pending = [...toScore]; pending.length > 0; ) {
    const flipped: number[] = [];
    for (const ids of chunksOf(pending)) {
      for (const [id, f] of await referrerFacts(q, ids, nowMs, rules)) facts.set(id, f);
      const was = new Map((await q.query<{ user_id: number; referral_farm: boolean }>('SELECT user_id, referral_farm FROM integrity_players WHERE user_id = ANY($1::bigint[])', [ids])).rows.map((r) => [Number(r.user_id), r.referral_farm]));
      for (const id of ids) {
        const now = isReferralFarm(referrerEvidence(facts.get(id) ?? null, rules));
        farm.set(id, now);
        if (now !== (was.get(id) ?? false)) flipped.push(id);
      }
    }
    pending = [];
    for (const ids of chunksOf(flipped)) {
      for (const id of await idsOf(q, 'SELECT friend_id AS id FROM referrals WHERE referrer_id = ANY($1::bigint[])', [ids])) {
        if (!toScore.has(id)) {
          toScore.add(id);
          pending.push(id);
        }
      }
    }
  }

  // 3. Score each, in chunks, rows locked in id order (an operator's decision waits for the run).
  const published: { id: number; review: string | null; reasons: string[] | null }[] = [];
  let scored = 0;
  for (const ids of chunksOf([...toScore].sort((a, b) => a - b))) {
    const users = await q.query<{ id: number; tele_age: number; tw_age: number; is_premium: boolean; airdrop_review: string | null; airdrop_reasons: string[] | null }>(
      'SELECT id, tele_age, tw_age, is_premium, airdrop_review, airdrop_reasons FROM users WHERE id = ANY($1::bigint[])',
      [ids],
    );
    const present = users.rows.map((u) => Number(u.id));
    if (present.length === 0) continue;
    await q.query('INSERT INTO integrity_players (user_id) SELECT unnest($1::bigint[]) ON CONFLICT (user_id) DO NOTHING', [present]);
    const rows = new Map(
      (await q.query<PlayerRow>('SELECT * FROM integrity_players WHERE user_id = ANY($1::bigint[]) ORDER BY user_id FOR UPDATE', [present])).rows.map((r) => [Number(r.user_id), r]),
    );
    const devices = new Map(
      (
        await q.query<{ id: number; accounts: number; without_app: boolean; with_app: boolean }>(
          `WITH mine AS (SELECT device_id, user_id FROM integrity_devices WHERE user_id = ANY($1::bigint[])),
                shared AS (SELECT device_id, count(*)::int AS n FROM integrity_devices
                            WHERE device_id IN (SELECT device_id FROM mine WHERE device_id <> '') GROUP BY device_id)
           SELECT m.user_id AS id, COALESCE(max(s.n), 0)::int AS accounts, bool_or(m.device_id = '') AS without_app, bool_or(m.device_id <> '') AS with_app
             FROM mine m LEFT JOIN shared s USING (device_id) GROUP BY m.user_id`,
          [present],
        )
      ).rows.map((r) => [Number(r.id), r]),
    );
    const invited = new Map(
      (
        await q.query<{ id: number; referrer_id: number; reached: boolean }>(
          'SELECT friend_id AS id, referrer_id, clicked_at_ms IS NOT NULL AS reached FROM referrals WHERE friend_id = ANY($1::bigint[])',
          [present],
        )
      ).rows.map((r) => [Number(r.id), r]),
    );
    const unknownReferrers = [...new Set([...invited.values()].map((r) => Number(r.referrer_id)))].filter((id) => !farm.has(id));
    if (unknownReferrers.length > 0) {
      const r = await q.query<{ user_id: number; referral_farm: boolean }>('SELECT user_id, referral_farm FROM integrity_players WHERE user_id = ANY($1::bigint[])', [unknownReferrers]);
      for (const id of unknownReferrers) farm.set(id, false);
      for (const row of r.rows) farm.set(Number(row.user_id), row.referral_farm);
    }
    const missingFacts = present.filter((id) => !facts.has(id));
    for (const [id, f] of await referrerFacts(q, missingFacts, nowMs, rules)) facts.set(id, f);

    const written: unknown[] = [];
    for (const u of users.rows) {
      const id = Number(u.id);
      const row = rows.get(id)!;
      const c = cadence.get(id) ?? cadenceOf(row);
      const d = devices.get(id);
      const inv = invited.get(id);
      const result = reviewOf(
        {
          cadence: c,
          deviceAccounts: d?.accounts ?? 0,
          withoutApp: d?.without_app ?? false,
          withApp: d?.with_app ?? false,
          invites: facts.get(id) ?? null,
          invitedBy: inv === undefined ? null : { referrerId: Number(inv.referrer_id), referrerFarm: farm.get(Number(inv.referrer_id)) ?? false, reached100: inv.reached },
          teleAgeDays: u.tele_age,
          xAgeDays: u.tw_age,
          premium: u.is_premium,
        },
        rules,
      );
      const state = stateOf(result.score, result.reasons, { decision: row.decision, decidedReasons: row.decided_reasons }, rules.reviewScore);
      written.push({
        user_id: id,
        last_any_ms: c.lastAnyMs,
        last_batch_ms: c.lastBatchMs,
        last_size: c.lastSize,
        win_n: c.winN,
        win_gap_mean: c.winGapMean,
        win_gap_m2: c.winGapM2,
        win_size_mean: c.winSizeMean,
        win_size_m2: c.winSizeM2,
        windows: c.windows,
        regular_windows: c.regularWindows,
        active_ms: c.activeMs,
        cap_ms: c.capMs,
        stretch_start_ms: c.stretchStartMs,
        longest_stretch_ms: c.longestStretchMs,
        hour_mark: c.hourMark,
        hours_mask: c.hoursMask,
        max_day_hours: c.maxDayHours,
        referral_farm: result.referralFarm,
        score: result.score,
        reasons: result.reasons,
        evidence: result.evidence,
        state,
        flagged: state !== 'clear' || row.decision !== null,
      });
      const review = state === 'clear' ? null : state;
      const reasons = state === 'clear' ? null : result.reasons;
      if (review !== u.airdrop_review || JSON.stringify(reasons) !== JSON.stringify(u.airdrop_reasons ?? null)) published.push({ id, review, reasons });
    }
    await q.query(
      `UPDATE integrity_players p SET
         last_any_ms = x.last_any_ms, last_batch_ms = x.last_batch_ms, last_size = x.last_size,
         win_n = x.win_n, win_gap_mean = x.win_gap_mean, win_gap_m2 = x.win_gap_m2, win_size_mean = x.win_size_mean, win_size_m2 = x.win_size_m2,
         windows = x.windows, regular_windows = x.regular_windows, active_ms = x.active_ms, cap_ms = x.cap_ms,
         stretch_start_ms = x.stretch_start_ms, longest_stretch_ms = x.longest_stretch_ms,
         hour_mark = x.hour_mark, hours_mask = x.hours_mask, max_day_hours = x.max_day_hours,
         referral_farm = x.referral_farm, score = x.score, reasons = x.reasons, evidence = x.evidence,
         state = x.state, flagged = x.flagged, scored_at_ms = $2
       FROM json_to_recordset($1::json) AS x(
         user_id bigint, last_any_ms bigint, last_batch_ms bigint, last_size int,
         win_n int, win_gap_mean float8, win_gap_m2 float8, win_size_mean float8, win_size_m2 float8,
         windows int, regular_windows int, active_ms bigint, cap_ms bigint, stretch_start_ms bigint, longest_stretch_ms bigint,
         hour_mark bigint, hours_mask int, max_day_hours int, referral_farm boolean, score int, reasons text[], evidence jsonb,
         state text, flagged boolean)
       WHERE p.user_id = x.user_id`,
      [JSON.stringify(written), nowMs],
    );
    scored += written.length;
  }

  await q.query('UPDATE integrity_mark SET mark_ms = $1 WHERE id = 1', [toMs]);
  // Last: the status's copy, where it changed, players locked in id order (the click path's order).
  for (const part of chunksOf(published.sort((a, b) => a.id - b.id))) {
    await q.query('SELECT id FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [part.map((p) => p.id)]);
    await q.query(
      `UPDATE users u SET airdrop_review = x.review, airdrop_reasons = x.reasons
         FROM json_to_recordset($1::json) AS x(id bigint, review text, reasons text[]) WHERE u.id = x.id`,
      [JSON.stringify(part)],
    );
  }
  return { fromMs, toMs, batches, scored, changed: published.length };
};

/** The job, for the scheduler's table (server/background/jobs.ts). */
export const integritySignalsJob = (rules: IntegrityRules): Job<IntegrityRunResult> => ({
  name: 'integrity-signals',
  periodOf: (nowMs) => String(Math.floor(nowMs / rules.jobEveryMs)),
  checkEveryMs: Math.max(1_000, Math.floor(rules.jobEveryMs / 4)),
  run: ({ tx, nowMs }) => runIntegritySignals(tx, nowMs, rules),
});

/** One run now, in its own transaction (tests, the bench, the test cron). */
export const refreshIntegrity = (db: Db, nowMs: number, rules: IntegrityRules): Promise<IntegrityRunResult> =>
  transaction(db, (tx) => runIntegritySignals(tx, nowMs, rules));
