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
 *    Beside them, the group signals (groups.ts): new referrals extend the tree and its bursts, ended
 *    sessions are compared with their siblings', and invitees who crossed $100 paidJudgeMs ago
 *    (and their referrers) are judged; a referrer or ancestor whose group flags change has all their
 *    invitees and subtree scored again;
 * 3. each is scored (score.ts) from their sums, devices, referrals, groups and trust; the row's state
 *    follows unless an operator decided it; the status's copy on users is written last, only where
 *    it changed, so a player's row is locked for the commit and nothing longer.
 */
import type { Queryable, Db } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import type { Job } from '../core/jobs/job.ts';
import { closeSession, emptyCadence, foldBatch, type CadenceState, type ClosedSession } from './cadence.ts';
import { extendTree, groupFlag, recordSessions, youngAncestorsOf } from './groups.ts';
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
  /** The group signals' part of the run (the tree, sessions and twins), ms. */
  groupMs: number;
}

interface PlayerRow {
  user_id: number;
  last_any_ms: number | null;
  last_batch_ms: number | null;
  last_size: number | null;
  last_client_ms: number | null;
  client_offset_ms: number | null;
  last_server_ms: number | null;
  win_server_gap_mean: number;
  win_server_gap_m2: number;
  session_start_ms: number | null;
  session_batches: number;
  session_taps: number;
  tree_burst: number;
  tree_burst_ancestor: number | null;
  twin_best: number;
  twin_sibling: number | null;
  group_flags: number;
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
  lastClientMs: num(r.last_client_ms),
  clientOffsetMs: num(r.client_offset_ms),
  lastServerMs: num(r.last_server_ms),
  winServerGapMean: Number(r.win_server_gap_mean),
  winServerGapM2: Number(r.win_server_gap_m2),
  sessionStartMs: num(r.session_start_ms),
  sessionBatches: r.session_batches,
  sessionTaps: r.session_taps,
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
  const counts = await q.query<{ id: number; invites: number; aged: number; aged_idle: number; sharing: number; paid_judged: number; paid_stopped: number }>(
    `SELECT r.referrer_id AS id, count(*)::int AS invites,
            count(*) FILTER (WHERE r.created_at_ms < $2)::int AS aged,
            count(*) FILTER (WHERE r.created_at_ms < $2 AND r.clicked_at_ms IS NULL)::int AS aged_idle,
            count(*) FILTER (WHERE EXISTS (
              SELECT 1 FROM integrity_devices d JOIN integrity_devices o ON o.device_id = d.device_id AND o.user_id <> d.user_id
               WHERE d.user_id = r.friend_id AND d.device_id <> ''))::int AS sharing,
            count(*) FILTER (WHERE r.clicked_at_ms < $3)::int AS paid_judged,
            count(*) FILTER (WHERE r.clicked_at_ms < $3 AND COALESCE(p.last_server_ms, p.last_any_ms, r.clicked_at_ms) <= r.clicked_at_ms + $4)::int AS paid_stopped
       FROM referrals r LEFT JOIN integrity_players p ON p.user_id = r.friend_id
      WHERE r.referrer_id = ANY($1::bigint[]) GROUP BY r.referrer_id`,
    [ids, nowMs - rules.idleAfterMs, nowMs - rules.paidJudgeMs, rules.paidStopMs],
  );
  const trees = new Map(
    (await q.query<{ id: number; tree_size: number; tree_young: number }>('SELECT user_id AS id, tree_size, tree_young FROM integrity_players WHERE user_id = ANY($1::bigint[]) AND tree_size > 0', [ids])).rows.map(
      (t) => [Number(t.id), t],
    ),
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
    const t = trees.get(id);
    out.set(id, {
      invites: r.invites,
      aged: r.aged,
      agedIdle: r.aged_idle,
      sharing: r.sharing,
      burstMax: burstOf.get(id) ?? 0,
      treeSize: t?.tree_size ?? 0,
      treeYoung: t?.tree_young ?? 0,
      paidJudged: r.paid_judged,
      paidStopped: r.paid_stopped,
    });
  }
  return out;
};

/** Runs the signals once, in the caller's transaction; see the file's comment. */
export const runIntegritySignals = async (q: Queryable, nowMs: number, rules: IntegrityRules): Promise<IntegrityRunResult> => {
  await q.query('INSERT INTO integrity_mark (id, mark_ms) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [nowMs - firstLookbackMs]);
  const fromMs = Number((await q.query<{ mark_ms: number }>('SELECT mark_ms FROM integrity_mark WHERE id = 1 FOR UPDATE')).rows[0]!.mark_ms);
  const toMs = nowMs - foldLagMs;
  if (toMs <= fromMs) return { fromMs, toMs: fromMs, batches: 0, scored: 0, changed: 0, groupMs: 0 };

  // 1. Cadence: the batches since the mark, in time order, into each player's sums.
  const stored = new Map<number, PlayerRow>();
  const cadence = new Map<number, CadenceState>();
  const ended: { userId: number; session: ClosedSession }[] = [];
  let batches = 0;
  for (let a = fromMs; a < toMs; a += sliceMs) {
    const rows = await q.query<{ user_id: number; created_at_ms: number; requested: number; client_ms: number | null }>(
      'SELECT user_id, created_at_ms, requested, client_ms FROM click_batches WHERE created_at_ms >= $1 AND created_at_ms < $2 ORDER BY created_at_ms, user_id',
      [a, Math.min(toMs, a + sliceMs)],
    );
    const fresh = [...new Set(rows.rows.map((r) => Number(r.user_id)))].filter((id) => !cadence.has(id));
    for (const ids of chunksOf(fresh)) {
      for (const r of (await q.query<PlayerRow>('SELECT * FROM integrity_players WHERE user_id = ANY($1::bigint[])', [ids])).rows) stored.set(Number(r.user_id), r);
      for (const id of ids) cadence.set(id, stored.has(id) ? cadenceOf(stored.get(id)!) : emptyCadence());
    }
    for (const r of rows.rows) {
      const session = foldBatch(cadence.get(Number(r.user_id))!, Number(r.created_at_ms), r.requested, rules, num(r.client_ms));
      if (session !== null) ended.push({ userId: Number(r.user_id), session });
    }
    batches += rows.rows.length;
  }
  // Sessions whose last batch is a session gap old have ended: those played now, and those left open by an earlier run.
  const groupStart = performance.now();
  const open = (await q.query<PlayerRow>('SELECT * FROM integrity_players WHERE session_batches > 0 AND last_batch_ms < $1', [toMs - rules.sessionGapMs])).rows;
  for (const r of open) {
    const id = Number(r.user_id);
    if (cadence.has(id)) continue;
    stored.set(id, r);
    cadence.set(id, cadenceOf(r));
  }
  for (const [id, c] of cadence) {
    if (c.sessionBatches === 0 || c.lastBatchMs === null || c.lastBatchMs >= toMs - rules.sessionGapMs) continue;
    const session = closeSession(c);
    if (session !== null) ended.push({ userId: id, session });
  }
  // The group signals: the tree and its bursts, then the sessions against their siblings'.
  const grouped = [...(await extendTree(q, fromMs, toMs, rules)), ...(await recordSessions(q, ended, toMs, rules))];
  let groupMs = performance.now() - groupStart;

  // 2. Who to score again.
  const toScore = new Set<number>(cadence.keys());
  const add = (ids: number[]) => ids.forEach((id) => toScore.add(id));
  add(grouped);
  // Invitees who crossed $100 long enough ago to judge whether they stopped there, and their referrers.
  add(
    await idsOf(
      q,
      `SELECT friend_id AS id FROM referrals WHERE clicked_at_ms >= $1 AND clicked_at_ms < $2
       UNION SELECT referrer_id FROM referrals WHERE clicked_at_ms >= $1 AND clicked_at_ms < $2`,
      [fromMs - rules.paidJudgeMs, toMs - rules.paidJudgeMs],
    ),
  );
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

  // Referrers' and ancestors' flags first (a referral farm, invitees who stop past $100, a young
  // subtree): one whose flags change has all their invitees and subtree scored again.
  const groupFlagsStart = performance.now();
  const facts = new Map<number, ReferrerFacts | null>();
  const farm = new Map<number, boolean>();
  const flagsNow = new Map<number, number>();
  for (let pending = [...toScore]; pending.length > 0; ) {
    const flipped: number[] = [];
    for (const ids of chunksOf(pending)) {
      for (const [id, f] of await referrerFacts(q, ids, nowMs, rules)) facts.set(id, f);
      const was = new Map(
        (await q.query<{ user_id: number; referral_farm: boolean; group_flags: number }>('SELECT user_id, referral_farm, group_flags FROM integrity_players WHERE user_id = ANY($1::bigint[])', [ids])).rows.map((r) => [
          Number(r.user_id),
          r,
        ]),
      );
      for (const id of ids) {
        const e = referrerEvidence(facts.get(id) ?? null, rules);
        const now = isReferralFarm(e);
        const flags = (e.paidThenStopped !== undefined ? groupFlag.paidStop : 0) | (e.youngInvitees !== undefined ? groupFlag.youngTree : 0);
        farm.set(id, now);
        flagsNow.set(id, flags);
        const before = was.get(id);
        if (now !== (before?.referral_farm ?? false) || flags !== (before?.group_flags ?? 0)) flipped.push(id);
      }
    }
    pending = [];
    for (const ids of chunksOf(flipped)) {
      for (const id of await idsOf(q, 'SELECT friend_id AS id FROM referrals WHERE referrer_id = ANY($1::bigint[]) UNION SELECT friend_id FROM integrity_tree WHERE ancestor_id = ANY($1::bigint[])', [ids])) {
        if (!toScore.has(id)) {
          toScore.add(id);
          pending.push(id);
        }
      }
    }
  }

  groupMs += performance.now() - groupFlagsStart;

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
        await q.query<{ id: number; referrer_id: number; clicked_at_ms: number | null }>(
          'SELECT friend_id AS id, referrer_id, clicked_at_ms FROM referrals WHERE friend_id = ANY($1::bigint[])',
          [present],
        )
      ).rows.map((r) => [Number(r.id), r]),
    );
    const unknownReferrers = [...new Set([...invited.values()].map((r) => Number(r.referrer_id)))].filter((id) => !farm.has(id));
    if (unknownReferrers.length > 0) {
      const r = await q.query<{ user_id: number; referral_farm: boolean; group_flags: number }>('SELECT user_id, referral_farm, group_flags FROM integrity_players WHERE user_id = ANY($1::bigint[])', [unknownReferrers]);
      for (const id of unknownReferrers) farm.set(id, false);
      for (const row of r.rows) {
        farm.set(Number(row.user_id), row.referral_farm);
        flagsNow.set(Number(row.user_id), row.group_flags);
      }
    }
    // What a referrer's invitees past $100 did (their sentence gives the numbers), for the invitees who stopped.
    const paidReferrers = [...new Set([...invited.values()].map((r) => Number(r.referrer_id)))].filter((id) => ((flagsNow.get(id) ?? 0) & groupFlag.paidStop) !== 0 && !facts.has(id));
    for (const [id, f] of await referrerFacts(q, paidReferrers, nowMs, rules)) facts.set(id, f);
    const youngAncestors = await youngAncestorsOf(q, present, flagsNow);
    const missingFacts = present.filter((id) => !facts.has(id));
    for (const [id, f] of await referrerFacts(q, missingFacts, nowMs, rules)) facts.set(id, f);

    const written: unknown[] = [];
    for (const u of users.rows) {
      const id = Number(u.id);
      const row = rows.get(id)!;
      const c = cadence.get(id) ?? cadenceOf(row);
      const d = devices.get(id);
      const inv = invited.get(id);
      const clickedAt = num(inv?.clicked_at_ms ?? null);
      const referrerId = inv === undefined ? null : Number(inv.referrer_id);
      const referrerFacts_ = referrerId === null ? null : (facts.get(referrerId) ?? null);
      const stoppedAfterPaid = clickedAt !== null && clickedAt < nowMs - rules.paidJudgeMs && (c.lastServerMs ?? c.lastAnyMs ?? clickedAt) <= clickedAt + rules.paidStopMs;
      const referrerPaidStop =
        referrerId !== null && ((flagsNow.get(referrerId) ?? 0) & groupFlag.paidStop) !== 0 && referrerFacts_ !== null ? { stopped: referrerFacts_.paidStopped, judged: referrerFacts_.paidJudged } : null;
      const result = reviewOf(
        {
          cadence: c,
          deviceAccounts: d?.accounts ?? 0,
          withoutApp: d?.without_app ?? false,
          withApp: d?.with_app ?? false,
          invites: facts.get(id) ?? null,
          invitedBy:
            inv === undefined
              ? null
              : { referrerId: referrerId!, referrerFarm: farm.get(referrerId!) ?? false, reached100: clickedAt !== null, stoppedAfterPaid, referrerPaidStop },
          group: {
            treeBurst: row.tree_burst,
            treeBurstAncestor: num(row.tree_burst_ancestor),
            youngAncestor: u.tele_age < rules.youngDays ? (youngAncestors.get(id) ?? null) : null,
            twinBest: row.twin_best,
            twinSibling: num(row.twin_sibling),
          },
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
        last_client_ms: c.lastClientMs,
        client_offset_ms: c.clientOffsetMs,
        last_server_ms: c.lastServerMs,
        win_server_gap_mean: c.winServerGapMean,
        win_server_gap_m2: c.winServerGapM2,
        session_start_ms: c.sessionStartMs,
        session_batches: c.sessionBatches,
        session_taps: c.sessionTaps,
        group_flags: flagsNow.get(id) ?? row.group_flags,
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
         last_client_ms = x.last_client_ms, client_offset_ms = x.client_offset_ms, last_server_ms = x.last_server_ms,
         win_server_gap_mean = x.win_server_gap_mean, win_server_gap_m2 = x.win_server_gap_m2,
         session_start_ms = x.session_start_ms, session_batches = x.session_batches, session_taps = x.session_taps, group_flags = x.group_flags,
         win_n = x.win_n, win_gap_mean = x.win_gap_mean, win_gap_m2 = x.win_gap_m2, win_size_mean = x.win_size_mean, win_size_m2 = x.win_size_m2,
         windows = x.windows, regular_windows = x.regular_windows, active_ms = x.active_ms, cap_ms = x.cap_ms,
         stretch_start_ms = x.stretch_start_ms, longest_stretch_ms = x.longest_stretch_ms,
         hour_mark = x.hour_mark, hours_mask = x.hours_mask, max_day_hours = x.max_day_hours,
         referral_farm = x.referral_farm, score = x.score, reasons = x.reasons, evidence = x.evidence,
         state = x.state, flagged = x.flagged, scored_at_ms = $2
       FROM json_to_recordset($1::json) AS x(
         user_id bigint, last_any_ms bigint, last_batch_ms bigint, last_size int,
         last_client_ms bigint, client_offset_ms bigint, last_server_ms bigint, win_server_gap_mean float8, win_server_gap_m2 float8,
         session_start_ms bigint, session_batches int, session_taps int, group_flags int,
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
  return { fromMs, toMs, batches, scored, changed: published.length, groupMs: Math.round(groupMs) };
};

/** The job, for the scheduler's table (server/background/jobs.ts). */
/** The signals job's name in job_schedule. */
export const integritySignalsJobName = 'integrity-signals';

export const integritySignalsJob = (rules: IntegrityRules): Job<IntegrityRunResult> => ({
  name: integritySignalsJobName,
  periodOf: (nowMs) => String(Math.floor(nowMs / rules.jobEveryMs)),
  checkEveryMs: Math.max(1_000, Math.floor(rules.jobEveryMs / 4)),
  run: ({ tx, nowMs }) => runIntegritySignals(tx, nowMs, rules),
});

/** One run now, in its own transaction (tests, the bench, the test cron). */
export const refreshIntegrity = (db: Db, nowMs: number, rules: IntegrityRules): Promise<IntegrityRunResult> =>
  transaction(db, (tx) => runIntegritySignals(tx, nowMs, rules));
