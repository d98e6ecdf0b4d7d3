/**
 * The integrity review's thresholds (docs/airdrop.md "Integrity review"), spread into the server's
 * one schema in config.ts; every key is the env variable's own name. The defaults are the ones
 * docs/airdrop.md explains and bench/integrity.bench.ts measures. Players never see them.
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

export const integrityConfigShape = {
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

  // Devices
  /** More accounts than this on one device is the shared-device signal. */
  INTEGRITY_DEVICE_MAX_ACCOUNTS: int(1, 1_000, 4),

  // Trust
  /** A Telegram account at least this old (days, the id-based estimate) counts toward trust. */
  INTEGRITY_TRUST_TELE_DAYS: int(1, 36_500, 365),
  /** An X account at least this old (days) counts toward trust. */
  INTEGRITY_TRUST_X_DAYS: int(1, 36_500, 365),
};
