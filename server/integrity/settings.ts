/**
 * The integrity review's thresholds (docs/airdrop.md "Integrity review"), composed into the
 * server's one schema by server/background/settings.ts; every key is the env variable's own name.
 * The defaults are the ones docs/airdrop.md explains and bench/integrity.bench.ts measures.
 * Players never see them.
 */
import { z } from 'zod';

const int = (min: number, max: number, def: number) => z.coerce.number().int().min(min).max(max).default(def);
const share = (def: number) => z.coerce.number().min(0).max(1).default(def);
/** A published day, YYYY-MM-DD (a real calendar day), or empty while not announced. */
const day = z
  .string()
  .trim()
  .refine((v) => v === '' || (/^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v)), 'must be a day YYYY-MM-DD, or empty')
  .default('');

export const integritySettings = {
  // The dates the site's /airdrop page publishes (empty: "announced in the channel").
  /** The last day of review decisions and appeals. */
  AIRDROP_REVIEW_ENDS: day,
  /** The day of the snapshot. */
  AIRDROP_SNAPSHOT_DAY: day,
  /** How often the signals job runs, ms (once per period across processes). */
  INTEGRITY_JOB_MS: int(10_000, 86_400_000, 600_000),
  /** A score at or above this puts an undecided player under review. */
  INTEGRITY_REVIEW_SCORE: int(1, 1_000, 50),

  // Tap cadence (server/integrity/cadence.ts)
  /** A gap between click batches this long (s) ends a tapping session. */
  INTEGRITY_SESSION_GAP_S: int(5, 3_600, 60),
  /** Batch gaps per measured stretch of a session. */
  INTEGRITY_RHYTHM_WINDOW: int(5, 1_000, 10),
  /** A stretch is machine-regular when its gaps' coefficient of variation is at most this… */
  INTEGRITY_RHYTHM_GAP_CV: share(0.1),
  /** …and its batch sizes' one at most this. */
  INTEGRITY_RHYTHM_SIZE_CV: share(0.05),
  /** Stretches measured before the rhythm signal can apply. */
  INTEGRITY_RHYTHM_MIN_WINDOWS: int(1, 1_000, 3),
  /** Share of measured stretches that are machine-regular for the signal. */
  INTEGRITY_RHYTHM_SHARE: share(0.5),
  /** A batch at this share of the human-rate allowance (taps per second × its gap) is at the cap. */
  INTEGRITY_CAP_RATIO: share(0.9),
  /** Share of the time tapping spent at the cap for the signal. */
  INTEGRITY_CAP_SHARE: share(0.5),
  /** Time tapping (s) before the cap signal can apply. */
  INTEGRITY_CAP_MIN_ACTIVE_S: int(10, 86_400, 300),
  /** A gap this long (s) is a pause. */
  INTEGRITY_PAUSE_S: int(60, 86_400, 600),
  /** Play this long (h) with no pause is the no-pauses signal. */
  INTEGRITY_STRETCH_H: int(1, 72, 3),
  /** Active in at least this many hours of some 24 is the no-sleep signal. */
  INTEGRITY_SLEEPLESS_HOURS: int(12, 24, 21),
  /** A client's clock (firstTapMs) running ahead of the server's by more than this (ms) is not believed. */
  INTEGRITY_CLOCK_SLACK_MS: int(0, 60_000, 2_000),

  // Referrals (server/integrity/signals-job.ts)
  /** The burst window (s)… */
  INTEGRITY_BURST_WINDOW_S: int(10, 86_400, 600),
  /** …and the invitees in one that make a burst. */
  INTEGRITY_BURST_INVITES: int(2, 100_000, 25),
  /** An invitee this old (h) that has not reached $100 counts as idle. */
  INTEGRITY_IDLE_AFTER_H: int(1, 24 * 90, 24),
  /** Idle invitees counted before the idle signal can apply… */
  INTEGRITY_IDLE_MIN_INVITES: int(1, 100_000, 20),
  /** …and the share of them idle for it. */
  INTEGRITY_IDLE_SHARE: share(0.9),
  /** Invitees on a device shared with another account, for the referral device signal. */
  INTEGRITY_SHARED_INVITEES: int(1, 100_000, 5),

  // Groups (server/integrity/groups.ts): signals about accounts that came or play together
  /** Levels of a referral subtree the group signals look down (a referrer, their invitees, theirs…). */
  INTEGRITY_TREE_DEPTH: int(1, 10, 4),
  /** The subtree-burst window (s)… */
  INTEGRITY_TREE_BURST_S: int(10, 86_400, 600),
  /** …and the joins into one subtree within it that make a burst. */
  INTEGRITY_TREE_BURST_JOINS: int(2, 100_000, 15),
  /** A Telegram account younger than this (days, the id-based estimate) when it joined is young. */
  INTEGRITY_YOUNG_DAYS: int(1, 36_500, 180),
  /** Accounts in a subtree before the young-accounts signal can apply… */
  INTEGRITY_YOUNG_MIN_INVITEES: int(1, 100_000, 10),
  /** …and the share of them young for it. */
  INTEGRITY_YOUNG_SHARE: share(0.8),
  /** A session needs this many click batches to be compared with its siblings'. */
  INTEGRITY_TWIN_MIN_BATCHES: int(2, 10_000, 5),
  /** Sessions twinned with one sibling's at the same offset for the twin-sessions signal. */
  INTEGRITY_TWIN_SESSIONS: int(1, 1_000, 3),
  /** Siblings' sessions are compared within this many hours of each other. */
  INTEGRITY_TWIN_WINDOW_H: int(1, 168, 12),
  /** Two sessions with the same batches and taps are twins when their durations differ by at most this (ms)… */
  INTEGRITY_TWIN_DURATION_MS: int(0, 600_000, 2_000),
  /** …and a sibling's twins are "at the same offset" when their offsets differ by at most this (s). */
  INTEGRITY_TWIN_OFFSET_S: int(0, 86_400, 120),
  /** An invitee with no click batch this long (s) after crossing $100 stopped there… */
  INTEGRITY_PAID_STOP_S: int(60, 7 * 86_400, 1_800),
  /** …judged this long (h) after the crossing… */
  INTEGRITY_PAID_JUDGE_H: int(1, 24 * 90, 6),
  /** …for a referrer with at least this many such invitees… */
  INTEGRITY_PAID_MIN_INVITEES: int(1, 100_000, 5),
  /** …making at least this share of their judged invitees past $100. */
  INTEGRITY_PAID_SHARE: share(0.8),

  // Devices
  /** More accounts than this on one device is the shared-device signal. */
  INTEGRITY_DEVICE_MAX_ACCOUNTS: int(1, 1_000, 4),

  // Trust
  /** A Telegram account at least this old (days, the id-based estimate) counts toward trust. */
  INTEGRITY_TRUST_TELE_DAYS: int(1, 36_500, 365),
  /** An X account at least this old (days) counts toward trust. */
  INTEGRITY_TRUST_X_DAYS: int(1, 36_500, 365),
};

/** What the integrity review's settings hold once validated. */
export type IntegritySettings = z.output<z.ZodObject<typeof integritySettings>>;
