/**
 * The integrity review's rules (docs/airdrop.md "Integrity review"): the thresholds from config,
 * the points each reason adds to a player's score, the trust that takes points off, and the plain
 * words an operator reads for each reason. Players see only the reason's kind, never a number.
 */
import type { AirdropReasonCode } from '../../engine/wire/airdrop-review.ts';
import { economy } from '../../engine/rules/economy.ts';
import type { IntegritySettings } from './settings.ts';

export interface IntegrityRules {
  jobEveryMs: number;
  reviewScore: number;
  sessionGapMs: number;
  rhythmWindow: number;
  rhythmGapCv: number;
  rhythmSizeCv: number;
  rhythmMinWindows: number;
  rhythmShare: number;
  capRatio: number;
  capShare: number;
  capMinActiveMs: number;
  pauseMs: number;
  stretchMs: number;
  sleeplessHours: number;
  burstWindowMs: number;
  burstInvites: number;
  idleAfterMs: number;
  idleMinInvites: number;
  idleShare: number;
  sharedInvitees: number;
  deviceMaxAccounts: number;
  trustTeleDays: number;
  trustXDays: number;
  /** How far ahead of the server's a client's clock may run before it is not believed (cadence.ts). */
  clockSlackMs: number;
  treeDepth: number;
  treeBurstMs: number;
  treeBurstJoins: number;
  youngDays: number;
  youngMinInvitees: number;
  youngShare: number;
  twinMinBatches: number;
  twinSessions: number;
  twinWindowMs: number;
  twinDurationMs: number;
  twinOffsetMs: number;
  paidStopMs: number;
  paidJudgeMs: number;
  paidMinInvitees: number;
  paidShare: number;
  /** The human-rate allowance's taps per second (engine/rules/economy.ts), what "the cap" is. */
  humanTapsPerSecond: number;
  /** Auto-clicks (§4) come every autoClickIntervalMs with at most autoClickCap taps: not the player's own rhythm. */
  autoClickIntervalMs: number;
  autoClickCap: number;
}

/** The rules of a config (server/integrity/settings.ts). */
export const integrityRulesOf = (c: IntegritySettings): IntegrityRules => ({
  jobEveryMs: c.INTEGRITY_JOB_MS,
  reviewScore: c.INTEGRITY_REVIEW_SCORE,
  sessionGapMs: c.INTEGRITY_SESSION_GAP_S * 1_000,
  rhythmWindow: c.INTEGRITY_RHYTHM_WINDOW,
  rhythmGapCv: c.INTEGRITY_RHYTHM_GAP_CV,
  rhythmSizeCv: c.INTEGRITY_RHYTHM_SIZE_CV,
  rhythmMinWindows: c.INTEGRITY_RHYTHM_MIN_WINDOWS,
  rhythmShare: c.INTEGRITY_RHYTHM_SHARE,
  capRatio: c.INTEGRITY_CAP_RATIO,
  capShare: c.INTEGRITY_CAP_SHARE,
  capMinActiveMs: c.INTEGRITY_CAP_MIN_ACTIVE_S * 1_000,
  pauseMs: c.INTEGRITY_PAUSE_S * 1_000,
  stretchMs: c.INTEGRITY_STRETCH_H * 3_600_000,
  sleeplessHours: c.INTEGRITY_SLEEPLESS_HOURS,
  burstWindowMs: c.INTEGRITY_BURST_WINDOW_S * 1_000,
  burstInvites: c.INTEGRITY_BURST_INVITES,
  idleAfterMs: c.INTEGRITY_IDLE_AFTER_H * 3_600_000,
  idleMinInvites: c.INTEGRITY_IDLE_MIN_INVITES,
  idleShare: c.INTEGRITY_IDLE_SHARE,
  sharedInvitees: c.INTEGRITY_SHARED_INVITEES,
  deviceMaxAccounts: c.INTEGRITY_DEVICE_MAX_ACCOUNTS,
  trustTeleDays: c.INTEGRITY_TRUST_TELE_DAYS,
  trustXDays: c.INTEGRITY_TRUST_X_DAYS,
  clockSlackMs: c.INTEGRITY_CLOCK_SLACK_MS,
  treeDepth: c.INTEGRITY_TREE_DEPTH,
  treeBurstMs: c.INTEGRITY_TREE_BURST_S * 1_000,
  treeBurstJoins: c.INTEGRITY_TREE_BURST_JOINS,
  youngDays: c.INTEGRITY_YOUNG_DAYS,
  youngMinInvitees: c.INTEGRITY_YOUNG_MIN_INVITEES,
  youngShare: c.INTEGRITY_YOUNG_SHARE,
  twinMinBatches: c.INTEGRITY_TWIN_MIN_BATCHES,
  twinSessions: c.INTEGRITY_TWIN_SESSIONS,
  twinWindowMs: c.INTEGRITY_TWIN_WINDOW_H * 3_600_000,
  twinDurationMs: c.INTEGRITY_TWIN_DURATION_MS,
  twinOffsetMs: c.INTEGRITY_TWIN_OFFSET_S * 1_000,
  paidStopMs: c.INTEGRITY_PAID_STOP_S * 1_000,
  paidJudgeMs: Math.max(c.INTEGRITY_PAID_JUDGE_H * 3_600_000, c.INTEGRITY_PAID_STOP_S * 1_000),
  paidMinInvitees: c.INTEGRITY_PAID_MIN_INVITEES,
  paidShare: c.INTEGRITY_PAID_SHARE,
  humanTapsPerSecond: economy.humanTapsPerSecond,
  autoClickIntervalMs: economy.autoClickIntervalMs,
  autoClickCap: economy.autoClickCap,
});

/**
 * Points each reason adds to the score (a review at INTEGRITY_REVIEW_SCORE, 50 by default): one of
 * the device or invitee reasons, two tapping reasons or two referral reasons. Trust (at most 30)
 * outweighs any one reason; the two strongest tapping reasons are reviewed whatever the trust.
 */
export const reasonPoints: Record<AirdropReasonCode, number> = {
  tapRhythm: 40,
  tapAtCap: 40,
  noPauses: 30,
  noSleep: 30,
  referralBurst: 30,
  referralsIdle: 30,
  referralSharedDevice: 30,
  referralFarmInvitee: 50,
  sharedDevice: 50,
  apiClient: 50,
  treeBurst: 30,
  youngInvitees: 30,
  twinSessions: 50,
  paidThenStopped: 30,
};

/** Points trust takes off: Telegram Premium, an old Telegram account, an old X account. */
export const trustPoints = { premium: 15, teleAge: 10, xAge: 5 } as const;

/** The numbers behind each reason, as the job stores them (integrity_players.evidence). */
export interface Evidence {
  tapRhythm?: { windows: number; regular: number };
  tapAtCap?: { activeMinutes: number; capShare: number };
  noPauses?: { longestHours: number };
  noSleep?: { activeHours: number };
  referralBurst?: { inWindow: number; windowMinutes: number };
  referralsIdle?: { aged: number; idle: number };
  referralSharedDevice?: { sharing: number; invites: number };
  referralFarmInvitee?: { referrerId: string };
  sharedDevice?: { accounts: number };
  apiClient?: Record<string, never>;
  treeBurst?: { joined: number; windowMinutes: number; ancestorId: string };
  youngInvitees?: { young: number; accounts: number; ancestorId: string | null };
  twinSessions?: { sessions: number; siblingId: string };
  paidThenStopped?: { stopped: number; judged: number; referrerId: string | null };
  trust?: { teleAgeDays: number; xAgeDays: number; premium: boolean; points: number };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** The sentence an operator reads for a reason, from its evidence. */
export const reasonSentence = (code: AirdropReasonCode, e: Evidence): string => {
  switch (code) {
    case 'tapRhythm':
      return `In ${e.tapRhythm?.regular ?? '?'} of ${e.tapRhythm?.windows ?? '?'} measured stretches of play, the time between click batches and the taps in each hardly varied, as a script's do.`;
    case 'tapAtCap':
      return `Of ${e.tapAtCap?.activeMinutes ?? '?'} minutes spent tapping, ${pct(e.tapAtCap?.capShare ?? 0)} were at the human-rate cap.`;
    case 'noPauses':
      return `Played ${e.noPauses?.longestHours ?? '?'} hours in a row without a pause.`;
    case 'noSleep':
      return `Played in ${e.noSleep?.activeHours ?? '?'} of 24 hours in a row: no time to sleep.`;
    case 'referralBurst':
      return `${e.referralBurst?.inWindow ?? '?'} invitees joined within ${e.referralBurst?.windowMinutes ?? '?'} minutes.`;
    case 'referralsIdle':
      return `${e.referralsIdle?.idle ?? '?'} of ${e.referralsIdle?.aged ?? '?'} invitees old enough to judge never reached $100.`;
    case 'referralSharedDevice':
      return `${e.referralSharedDevice?.sharing ?? '?'} of ${e.referralSharedDevice?.invites ?? '?'} invitees play on a device another account uses.`;
    case 'referralFarmInvitee':
      return `Invited by player ${e.referralFarmInvitee?.referrerId ?? '?'}, whose invitees look like a farm, and never reached $100.`;
    case 'sharedDevice':
      return `The device this account plays on is used by ${e.sharedDevice?.accounts ?? '?'} accounts.`;
    case 'apiClient':
      return 'Click batches came without what the mini-app always sends (its device id and a batch id): another program sent them.';
    case 'treeBurst':
      return `Joined the referral subtree of player ${e.treeBurst?.ancestorId ?? '?'} with ${e.treeBurst?.joined ?? '?'} accounts within ${e.treeBurst?.windowMinutes ?? '?'} minutes.`;
    case 'youngInvitees':
      return e.youngInvitees?.ancestorId
        ? `A young Telegram account in the referral subtree of player ${e.youngInvitees.ancestorId}, where ${e.youngInvitees.young} of ${e.youngInvitees.accounts} accounts are young.`
        : `${e.youngInvitees?.young ?? '?'} of ${e.youngInvitees?.accounts ?? '?'} accounts in this player's referral subtree are young Telegram accounts.`;
    case 'twinSessions':
      return `${e.twinSessions?.sessions ?? '?'} sessions had the same structure (calls, taps, duration) as sessions of player ${e.twinSessions?.siblingId ?? '?'}, at the same offset each time.`;
    case 'paidThenStopped':
      return e.paidThenStopped?.referrerId
        ? `Stopped playing soon after reaching $100, as ${e.paidThenStopped.stopped} of ${e.paidThenStopped.judged} invitees of player ${e.paidThenStopped.referrerId} did.`
        : `${e.paidThenStopped?.stopped ?? '?'} of ${e.paidThenStopped?.judged ?? '?'} invitees past $100 stopped playing soon after reaching it.`;
  }
};

/** The trust sentence an operator reads, or null when there is none. */
export const trustSentence = (e: Evidence): string | null => {
  const t = e.trust;
  if (t === undefined || t.points === 0) return null;
  const parts = [t.premium ? 'Telegram Premium' : null, t.teleAgeDays > 0 ? `a Telegram account about ${t.teleAgeDays} days old` : null, t.xAgeDays > 0 ? `an X account ${t.xAgeDays} days old` : null];
  return `Trust −${t.points}: ${parts.filter((p) => p !== null).join(', ')}.`;
};
