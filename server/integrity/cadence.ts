/**
 * Tap cadence (docs/airdrop.md "Integrity review"): the job folds each player's click batches
 * (click_batches: time, taps requested), in time order, into a few running sums, so a run costs
 * what was played since the last one, never a player's whole history:
 * - rhythm: a session (batches less than sessionGapMs apart) is measured in windows of
 *   rhythmWindow gaps; a window whose gaps and sizes both have a coefficient of variation at or
 *   below the thresholds is machine-regular. The mini-app's own batching (300 ms after the last
 *   tap, at most 1 s after the first, §9) makes a human's gaps fairly even, but never their taps;
 * - the cap: the time between batches of a session, and the part of it where the batch carried
 *   at least capRatio × the human-rate allowance (20 taps a second, engine/economy.ts);
 * - pauses: the longest stretch of play with no gap of pauseMs or more;
 * - sleep: the most hours with a batch in any 24 hours in a row (a 24-bit mask of hours).
 * Auto-clicks (§4: at most 53 taps every 10 s while the app is open) are the app's rhythm, not the
 * player's: a batch of at most autoClickCap taps about autoClickIntervalMs after the previous one
 * is left out of every sum, so an app left open overnight is not a player who never sleeps.
 */
import type { IntegrityRules } from './rules.ts';

/** The running sums of one player (the cadence columns of integrity_players). */
export interface CadenceState {
  lastAnyMs: number | null;
  lastBatchMs: number | null;
  lastSize: number | null;
  winN: number;
  winGapMean: number;
  winGapM2: number;
  winSizeMean: number;
  winSizeM2: number;
  windows: number;
  regularWindows: number;
  activeMs: number;
  capMs: number;
  stretchStartMs: number | null;
  longestStretchMs: number;
  hourMark: number | null;
  hoursMask: number;
  maxDayHours: number;
}

export const emptyCadence = (): CadenceState => ({
  lastAnyMs: null,
  lastBatchMs: null,
  lastSize: null,
  winN: 0,
  winGapMean: 0,
  winGapM2: 0,
  winSizeMean: 0,
  winSizeM2: 0,
  windows: 0,
  regularWindows: 0,
  activeMs: 0,
  capMs: 0,
  stretchStartMs: null,
  longestStretchMs: 0,
  hourMark: null,
  hoursMask: 0,
  maxDayHours: 0,
});

export type CadenceRules = Pick<
  IntegrityRules,
  'sessionGapMs' | 'rhythmWindow' | 'rhythmGapCv' | 'rhythmSizeCv' | 'capRatio' | 'pauseMs' | 'humanTapsPerSecond' | 'autoClickIntervalMs' | 'autoClickCap'
>;

const hourMs = 3_600_000;
const dayMask = 0xff_ffff;
/** An auto-click comes this close to its interval after the previous batch (timers and the network are not exact). */
const autoClickSlackMs = 1_500;

const bitsSet = (mask: number): number => {
  let n = 0;
  for (let m = mask; m !== 0; m &= m - 1) n++;
  return n;
};

/** Coefficient of variation from Welford's sums: standard deviation over mean (0 for a mean of 0). */
export const cvOf = (n: number, mean: number, m2: number): number => (n === 0 || mean === 0 ? 0 : Math.sqrt(Math.max(0, m2) / n) / mean);

const resetWindow = (s: CadenceState): void => {
  s.winN = 0;
  s.winGapMean = 0;
  s.winGapM2 = 0;
  s.winSizeMean = 0;
  s.winSizeM2 = 0;
};

/** Marks the batch's hour and keeps the most hours with a batch in any 24 in a row. */
const markHour = (s: CadenceState, atMs: number): void => {
  const h = Math.floor(atMs / hourMs);
  if (s.hourMark === null || h - s.hourMark >= 24) {
    s.hourMark = h;
    s.hoursMask = 1;
  } else if (h > s.hourMark) {
    s.hoursMask = ((s.hoursMask << (h - s.hourMark)) | 1) & dayMask;
    s.hourMark = h;
  } else if (s.hourMark - h < 24) {
    s.hoursMask |= 1 << (s.hourMark - h);
  }
  s.maxDayHours = Math.max(s.maxDayHours, bitsSet(s.hoursMask));
};

/** Folds one click batch (server time, taps requested) into the player's sums; batches come in time order. */
export const foldBatch = (s: CadenceState, atMs: number, requested: number, r: CadenceRules): void => {
  const sinceAny = s.lastAnyMs === null ? Infinity : atMs - s.lastAnyMs;
  s.lastAnyMs = atMs;
  if (requested <= r.autoClickCap && Math.abs(sinceAny - r.autoClickIntervalMs) <= autoClickSlackMs) return;
  markHour(s, atMs);
  const gap = s.lastBatchMs === null ? Infinity : atMs - s.lastBatchMs;
  s.lastBatchMs = atMs;
  s.lastSize = requested;
  if (gap >= r.pauseMs) s.stretchStartMs = atMs;
  s.longestStretchMs = Math.max(s.longestStretchMs, atMs - (s.stretchStartMs ?? atMs));
  if (gap >= r.sessionGapMs) {
    // A new session: a window cut short by its end is not measured.
    resetWindow(s);
    return;
  }
  s.activeMs += gap;
  if (requested >= (r.capRatio * r.humanTapsPerSecond * gap) / 1_000) s.capMs += gap;
  s.winN++;
  const dGap = gap - s.winGapMean;
  s.winGapMean += dGap / s.winN;
  s.winGapM2 += dGap * (gap - s.winGapMean);
  const dSize = requested - s.winSizeMean;
  s.winSizeMean += dSize / s.winN;
  s.winSizeM2 += dSize * (requested - s.winSizeMean);
  if (s.winN < r.rhythmWindow) return;
  s.windows++;
  if (cvOf(s.winN, s.winGapMean, s.winGapM2) <= r.rhythmGapCv && cvOf(s.winN, s.winSizeMean, s.winSizeM2) <= r.rhythmSizeCv) s.regularWindows++;
  resetWindow(s);
};
