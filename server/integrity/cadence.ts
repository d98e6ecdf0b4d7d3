/**
 * Tap cadence (docs/airdrop.md "Integrity review"): the job folds each player's click batches
 * (click_batches: time, taps requested), in time order, into a few running sums, so a run costs
 * what was played since the last one, never a player's whole history:
 * - rhythm: a session (batches less than sessionGapMs apart) is measured in windows of
 *   rhythmWindow gaps; a window whose gaps and sizes both have a coefficient of variation at or
 *   below the thresholds is machine-regular. The mini-app's own batching (300 ms after the last
 *   tap, at most 1 s after the first, §9) makes a human's gaps fairly even, but never their taps;
 * - the cap: the time between batches of a session, and the part of it where the batch carried
 *   at least capRatio × the human-rate allowance (20 taps a second, engine/rules/economy.ts);
 * - pauses: the longest stretch of play with no gap of pauseMs or more;
 * - sleep: the most hours with a batch in any 24 hours in a row (a 24-bit mask of hours).
 * Auto-clicks (§4: at most 53 taps every 10 s while the app is open) are the app's rhythm, not the
 * player's: a batch of at most autoClickCap taps about autoClickIntervalMs after the previous one
 * is left out of every sum, so an app left open overnight is not a player who never sleeps.
 *
 * The client's clock: the mini-app sends its clock at each batch's first tap (firstTapMs). A batch
 * is timed at that moment on the server's timeline, `client + the smallest (server − client) seen
 * in the session`, so the time a batch waited in the outbox or the server's queue leaves its gaps
 * as the player made them: a slow server neither hides a script's even beat nor bunches a person's
 * batches into taps "at the cap". A client clock that runs ahead of the server's by more than
 * clockSlackMs (or goes back) is not believed: that batch is timed by the server and the session's
 * offset starts again. A window is regular when its sizes are, and its gaps by either clock are
 * (a client may claim earlier tap times, never later than the server saw the batch).
 */
import type { IntegrityRules } from './rules.ts';

/** The running sums of one player (the cadence columns of integrity_players). */
export interface CadenceState {
  lastAnyMs: number | null;
  lastBatchMs: number | null;
  lastSize: number | null;
  /** The previous counted batch's client clock, and the session's smallest server − client offset (null: not known). */
  lastClientMs: number | null;
  clientOffsetMs: number | null;
  /** The previous counted batch's server time, and the window's gaps by the server's clock (the second opinion). */
  lastServerMs: number | null;
  winServerGapMean: number;
  winServerGapM2: number;
  /** The session in progress (counted batches only): its start, batches and taps. */
  sessionStartMs: number | null;
  sessionBatches: number;
  sessionTaps: number;
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
  lastClientMs: null,
  clientOffsetMs: null,
  lastServerMs: null,
  winServerGapMean: 0,
  winServerGapM2: 0,
  sessionStartMs: null,
  sessionBatches: 0,
  sessionTaps: 0,
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
  'sessionGapMs' | 'rhythmWindow' | 'rhythmGapCv' | 'rhythmSizeCv' | 'capRatio' | 'pauseMs' | 'humanTapsPerSecond' | 'autoClickIntervalMs' | 'autoClickCap' | 'clockSlackMs'
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
  s.winServerGapMean = 0;
  s.winServerGapM2 = 0;
};

/**
 * The batch's time on the server's timeline by the client's clock (see the file's comment), or the
 * server's time when the client sent none or its clock is not believed; keeps the session's offset.
 */
const timeOf = (s: CadenceState, serverMs: number, clientMs: number | null, r: CadenceRules): number => {
  if (clientMs === null) {
    s.clientOffsetMs = null;
    s.lastClientMs = null;
    return serverMs;
  }
  const offset = serverMs - clientMs;
  const believed =
    s.clientOffsetMs !== null && s.lastClientMs !== null && clientMs >= s.lastClientMs && offset >= s.clientOffsetMs - r.clockSlackMs && serverMs - (s.lastServerMs ?? serverMs) < r.sessionGapMs;
  s.lastClientMs = clientMs;
  if (!believed) {
    s.clientOffsetMs = offset;
    return serverMs;
  }
  s.clientOffsetMs = Math.min(s.clientOffsetMs!, offset);
  return clientMs + s.clientOffsetMs;
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

/** A session that ended: its shape, which the twin-sessions signal compares between siblings. */
export interface ClosedSession {
  startMs: number;
  durationMs: number;
  batches: number;
  taps: number;
}

/** Ends the session in progress (the job calls it once a session's last batch is sessionGapMs old). */
export const closeSession = (s: CadenceState): ClosedSession | null => {
  if (s.sessionStartMs === null || s.sessionBatches === 0) return null;
  const closed = { startMs: s.sessionStartMs, durationMs: Math.max(0, (s.lastBatchMs ?? s.sessionStartMs) - s.sessionStartMs), batches: s.sessionBatches, taps: s.sessionTaps };
  s.sessionStartMs = null;
  s.sessionBatches = 0;
  s.sessionTaps = 0;
  return closed;
};

/**
 * Folds one click batch (server time, taps requested, the client's clock at its first tap when
 * sent) into the player's sums; batches come in the server's time order.
 */
export const foldBatch = (s: CadenceState, serverMs: number, requested: number, r: CadenceRules, clientMs: number | null = null): ClosedSession | null => {
  const atMs = timeOf(s, serverMs, clientMs, r);
  const sinceAny = s.lastAnyMs === null ? Infinity : atMs - s.lastAnyMs;
  s.lastAnyMs = atMs;
  if (requested <= r.autoClickCap && Math.abs(sinceAny - r.autoClickIntervalMs) <= autoClickSlackMs) return null;
  markHour(s, atMs);
  const gap = s.lastBatchMs === null ? Infinity : Math.max(0, atMs - s.lastBatchMs);
  s.lastBatchMs = atMs;
  const serverGap = s.lastServerMs === null ? gap : serverMs - s.lastServerMs;
  s.lastServerMs = serverMs;
  s.lastSize = requested;
  if (gap >= r.pauseMs) s.stretchStartMs = atMs;
  s.longestStretchMs = Math.max(s.longestStretchMs, atMs - (s.stretchStartMs ?? atMs));
  if (gap >= r.sessionGapMs) {
    // A new session: a window cut short by its end is not measured.
    resetWindow(s);
    const closed = closeSession(s);
    s.sessionStartMs = atMs;
    s.sessionBatches = 1;
    s.sessionTaps = requested;
    return closed;
  }
  s.sessionBatches++;
  s.sessionTaps += requested;
  s.activeMs += gap;
  if (requested >= (r.capRatio * r.humanTapsPerSecond * gap) / 1_000) s.capMs += gap;
  s.winN++;
  const dGap = gap - s.winGapMean;
  s.winGapMean += dGap / s.winN;
  s.winGapM2 += dGap * (gap - s.winGapMean);
  const dServer = serverGap - s.winServerGapMean;
  s.winServerGapMean += dServer / s.winN;
  s.winServerGapM2 += dServer * (serverGap - s.winServerGapMean);
  const dSize = requested - s.winSizeMean;
  s.winSizeMean += dSize / s.winN;
  s.winSizeM2 += dSize * (requested - s.winSizeMean);
  if (s.winN < r.rhythmWindow) return null;
  s.windows++;
  const evenGaps = cvOf(s.winN, s.winGapMean, s.winGapM2) <= r.rhythmGapCv || cvOf(s.winN, s.winServerGapMean, s.winServerGapM2) <= r.rhythmGapCv;
  if (evenGaps && cvOf(s.winN, s.winSizeMean, s.winSizeM2) <= r.rhythmSizeCv) s.regularWindows++;
  resetWindow(s);
  return null;
};
