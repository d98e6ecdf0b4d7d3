/**
 * The airdrop's integrity review as the player's status carries it (docs/airdrop.md "Integrity
 * review"): the one home of its states, its reason codes and the kind of each code. The server
 * computes the reasons (server/integrity/); the mini-app shows the kind in the player's language,
 * never a threshold.
 */

/** clear: counted in the snapshot; review: flagged, an operator decides; excluded: left out of it. */
export const airdropReviewStates = ['clear', 'review', 'excluded'] as const;
export type AirdropReviewState = (typeof airdropReviewStates)[number];

/** Each reason code and the kind of behaviour it is about. */
export const airdropReasonKinds = {
  /** Batch intervals and sizes hardly vary, like a script's. */
  tapRhythm: 'tapping',
  /** Most of the time tapping is spent at the human-rate cap. */
  tapAtCap: 'tapping',
  /** Hours of play without a pause. */
  noPauses: 'tapping',
  /** Play in nearly every hour of a day. */
  noSleep: 'tapping',
  /** Invitees arrive in bursts. */
  referralBurst: 'referrals',
  /** Nearly all invitees never reach $100. */
  referralsIdle: 'referrals',
  /** Many invitees share devices. */
  referralSharedDevice: 'referrals',
  /** Invited by a referrer whose invitees look like a farm, and never reached $100. */
  referralFarmInvitee: 'referrals',
  /** The device is shared by many accounts. */
  sharedDevice: 'device',
  /** Click batches came without what the mini-app always sends (its device id, a batch id): another program. */
  apiClient: 'device',
  /** Joined a referral subtree (a referrer, their invitees' invitees…) together with many accounts within minutes. */
  treeBurst: 'group',
  /** Young Telegram accounts make most of a referrer's subtree (the referrer, and each young account in it). */
  youngInvitees: 'referrals',
  /** Sessions of the same structure (calls, taps, duration) as a sibling's, again and again at the same offset. */
  twinSessions: 'group',
  /** Stopped playing soon after crossing the $100 that pays the referrer, as most of the referrer's invitees did. */
  paidThenStopped: 'referrals',
} as const;

export type AirdropReasonCode = keyof typeof airdropReasonKinds;
export type AirdropReasonKind = (typeof airdropReasonKinds)[AirdropReasonCode];

export const airdropReasonCodes = Object.keys(airdropReasonKinds) as AirdropReasonCode[];
export const airdropReasonKindList: readonly AirdropReasonKind[] = ['tapping', 'referrals', 'group', 'device'];

export const isAirdropReasonCode = (value: unknown): value is AirdropReasonCode => typeof value === 'string' && Object.hasOwn(airdropReasonKinds, value);

/** The kinds of a list of reason codes, each once, in airdropReasonKindList's order. */
export const reasonKindsOf = (reasons: readonly string[]): AirdropReasonKind[] =>
  airdropReasonKindList.filter((kind) => reasons.some((r) => isAirdropReasonCode(r) && airdropReasonKinds[r] === kind));

/**
 * The device id the mini-app keeps in web storage and sends as `x-device-id` with its calls: 16
 * random bytes, base64url (22 characters). Random, created once per device: it identifies no one.
 */
export const deviceIdHeader = 'x-device-id';
export const deviceIdPattern = '^[A-Za-z0-9_-]{22}$';
export const isDeviceId = (value: unknown): value is string => typeof value === 'string' && new RegExp(deviceIdPattern).test(value);

/** `airdropReview` of the player's status (engine/wire/api-types.ts UserStatus). */
export interface AirdropReview {
  state: AirdropReviewState;
  /** The reason codes while under review or excluded; empty when clear. */
  reasons: AirdropReasonCode[];
}

/** One player of the operators' list (`GET /public/airdrop/flags`, the console), highest score first. */
export interface AirdropFlag {
  userId: string;
  score: number;
  state: AirdropReviewState;
  reasons: AirdropReasonCode[];
}

/** A page of the operators' list: `nextCursor` asks for the next one (null on the last). */
export interface AirdropFlagsPage<T extends AirdropFlag = AirdropFlag> {
  items: T[];
  nextCursor: string | null;
}

/** A flagged player as the console lists them: who, and each reason in plain words. */
export interface AirdropFlagRow extends AirdropFlag {
  teleUsername: string;
  totalMoney: string;
  decision: 'cleared' | 'excluded' | null;
  appeal: 'upheld' | 'overturned' | null;
  /** Each reason with its sentence (the evidence behind it), then trust when there is some. */
  evidence: { code: AirdropReasonCode | 'trust'; text: string }[];
  decidedAtMs: number | null;
  decisionNote: string;
}

/** An operator's decision on a review (the console): clear the player or exclude them from the snapshot. */
export interface ReviewDecisionPayload {
  decision: 'clear' | 'exclude';
  note?: string;
}

/** An operator's decision on a player's appeal: upheld keeps them out, overturned clears them. */
export interface AppealDecisionPayload {
  outcome: 'upheld' | 'overturned';
  note?: string;
}
