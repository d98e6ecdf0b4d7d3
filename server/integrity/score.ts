/**
 * From a player's facts to their review (docs/airdrop.md "Integrity review"): which reasons hold,
 * the score (their points less trust), and the state, which an operator's decision overrides. Pure:
 * the job (signals-job.ts) gathers the facts and writes the result.
 */
import type { AirdropReasonCode, AirdropReviewState } from '../../engine/wire/airdrop-review.ts';
import type { CadenceState } from './cadence.ts';
import { reasonPoints, trustPoints, type Evidence, type IntegrityRules } from './rules.ts';

/** What the job knows of one player. */
export interface PlayerFacts {
  cadence: CadenceState;
  /** Most accounts seen on one of the player's devices (0 without one). */
  deviceAccounts: number;
  /** The player sent click batches without what the mini-app sends… */
  withoutApp: boolean;
  /** …and never any with it. */
  withApp: boolean;
  /** As a referrer (null without invitees). */
  invites: ReferrerFacts | null;
  /**
   * As an invitee: the referrer, whether their invitees look like a farm, whether this player
   * reached $100, whether they stopped soon after (judged once paidJudgeMs passed), and whether
   * most of the referrer's invitees past $100 did.
   */
  invitedBy: { referrerId: number; referrerFarm: boolean; reached100: boolean; stoppedAfterPaid: boolean; referrerPaidStop: { stopped: number; judged: number } | null } | null;
  /** The group facts (groups.ts). */
  group: GroupFacts;
  teleAgeDays: number;
  xAgeDays: number;
  premium: boolean;
}

export interface GroupFacts {
  /** The most joins around this player's own into one ancestor's subtree, and that ancestor. */
  treeBurst: number;
  treeBurstAncestor: number | null;
  /** A young Telegram account under an ancestor whose subtree is young. */
  youngAncestor: { ancestorId: number; size: number; young: number } | null;
  /** The most sessions twinned with one sibling's at one offset, and that sibling. */
  twinBest: number;
  twinSibling: number | null;
}

export const noGroup: GroupFacts = { treeBurst: 0, treeBurstAncestor: null, youngAncestor: null, twinBest: 0, twinSibling: null };

export interface ReferrerFacts {
  invites: number;
  /** Invitees older than idleAfterMs, and those of them that never reached $100. */
  aged: number;
  agedIdle: number;
  /** The most invitees within any burst window. */
  burstMax: number;
  /** Invitees on a device another account uses. */
  sharing: number;
  /** Accounts in the player's subtree (treeDepth levels) and those young when they joined. */
  treeSize: number;
  treeYoung: number;
  /** Invitees past $100 long enough ago to judge, and those of them who stopped soon after. */
  paidJudged: number;
  paidStopped: number;
}

export interface ReviewResult {
  reasons: AirdropReasonCode[];
  score: number;
  evidence: Evidence;
  /** As a referrer: two referral reasons or more (their invitees' referralFarmInvitee reads it). */
  referralFarm: boolean;
}

type Rules = Omit<IntegrityRules, 'jobEveryMs'>;

/** The referrer's side of the referral reasons: two of them make a referral farm. */
const referrerReasons: readonly AirdropReasonCode[] = ['referralBurst', 'referralsIdle', 'referralSharedDevice', 'youngInvitees', 'paidThenStopped'];

/** The referral reasons of a referrer's invitees (also what decides `referralFarm`). */
export const referrerEvidence = (f: ReferrerFacts | null, r: Rules): Evidence => {
  const e: Evidence = {};
  if (f === null) return e;
  if (f.burstMax >= r.burstInvites) e.referralBurst = { inWindow: f.burstMax, windowMinutes: Math.round(r.burstWindowMs / 60_000) };
  if (f.aged >= r.idleMinInvites && f.agedIdle >= r.idleShare * f.aged) e.referralsIdle = { aged: f.aged, idle: f.agedIdle };
  if (f.sharing >= r.sharedInvitees) e.referralSharedDevice = { sharing: f.sharing, invites: f.invites };
  if (f.treeSize >= r.youngMinInvitees && f.treeYoung >= r.youngShare * f.treeSize) e.youngInvitees = { young: f.treeYoung, accounts: f.treeSize, ancestorId: null };
  if (f.paidStopped >= r.paidMinInvitees && f.paidStopped >= r.paidShare * f.paidJudged) e.paidThenStopped = { stopped: f.paidStopped, judged: f.paidJudged, referrerId: null };
  return e;
};

export const isReferralFarm = (e: Evidence): boolean => referrerReasons.filter((code) => e[code] !== undefined).length >= 2;

/** The reasons, score and evidence of a player's facts. */
export const reviewOf = (f: PlayerFacts, r: Rules): ReviewResult => {
  const c = f.cadence;
  const e: Evidence = referrerEvidence(f.invites, r);
  const referralFarm = isReferralFarm(e);
  if (c.windows >= r.rhythmMinWindows && c.regularWindows >= r.rhythmShare * c.windows) e.tapRhythm = { windows: c.windows, regular: c.regularWindows };
  if (c.activeMs >= r.capMinActiveMs && c.capMs >= r.capShare * c.activeMs) {
    e.tapAtCap = { activeMinutes: Math.round(c.activeMs / 60_000), capShare: Math.round((c.capMs / c.activeMs) * 100) / 100 };
  }
  if (c.longestStretchMs >= r.stretchMs) e.noPauses = { longestHours: Math.round((c.longestStretchMs / 3_600_000) * 10) / 10 };
  if (c.maxDayHours >= r.sleeplessHours) e.noSleep = { activeHours: c.maxDayHours };
  const by = f.invitedBy;
  if (by !== null && by.referrerFarm && (!by.reached100 || by.stoppedAfterPaid)) e.referralFarmInvitee = { referrerId: String(by.referrerId) };
  if (by !== null && by.stoppedAfterPaid && by.referrerPaidStop !== null && e.paidThenStopped === undefined) {
    e.paidThenStopped = { ...by.referrerPaidStop, referrerId: String(by.referrerId) };
  }
  const g = f.group;
  if (g.treeBurst >= r.treeBurstJoins) e.treeBurst = { joined: g.treeBurst, windowMinutes: Math.round(r.treeBurstMs / 60_000), ancestorId: String(g.treeBurstAncestor ?? '?') };
  if (g.youngAncestor !== null && e.youngInvitees === undefined) e.youngInvitees = { young: g.youngAncestor.young, accounts: g.youngAncestor.size, ancestorId: String(g.youngAncestor.ancestorId) };
  if (g.twinBest >= r.twinSessions) e.twinSessions = { sessions: g.twinBest, siblingId: String(g.twinSibling ?? '?') };
  if (f.deviceAccounts > r.deviceMaxAccounts) e.sharedDevice = { accounts: f.deviceAccounts };
  if (f.withoutApp && !f.withApp) e.apiClient = {};
  const reasons = (Object.keys(reasonPoints) as AirdropReasonCode[]).filter((code) => e[code] !== undefined);
  const trust =
    (f.premium ? trustPoints.premium : 0) + (f.teleAgeDays >= r.trustTeleDays ? trustPoints.teleAge : 0) + (f.xAgeDays >= r.trustXDays ? trustPoints.xAge : 0);
  if (trust > 0) e.trust = { teleAgeDays: f.teleAgeDays, xAgeDays: f.xAgeDays, premium: f.premium, points: trust };
  const score = reasons.reduce((sum, code) => sum + reasonPoints[code], 0) - trust;
  return { reasons, score, evidence: e, referralFarm };
};

/** An operator's decision on a player, as integrity_players keeps it. */
export interface Decision {
  decision: 'cleared' | 'excluded' | null;
  /** The reasons the operator saw when clearing: a new reason reopens the review. */
  decidedReasons: readonly string[];
}

/**
 * The state of a review: an exclusion stands; a clearing stands until a reason it did not see
 * appears; otherwise a player with reasons and a score at or above reviewScore is under review.
 */
export const stateOf = (score: number, reasons: readonly string[], d: Decision, reviewScore: number): AirdropReviewState => {
  if (d.decision === 'excluded') return 'excluded';
  if (d.decision === 'cleared' && reasons.every((code) => d.decidedReasons.includes(code))) return 'clear';
  return reasons.length > 0 && score >= reviewScore ? 'review' : 'clear';
};
