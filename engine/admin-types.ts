/**
 * Wire types of the operator console's API (docs/admin.md), shared by server/ and src/admin/.
 * Amounts are decimal strings, times epoch milliseconds, as in api-types.ts.
 */
import type { ErrorBody, Task } from './api-types.ts';

/** The console API lives beside the game API, outside its prefix (its own cookie path). */
export const adminApiPrefix = '/money/api/admin';

/** What a frozen player is told: the server's 423 on a click, claim or purchase (refusal code `frozen`), and the mini-app's banner. */
export const frozenPlayerMessage = 'Your account is frozen: taps, claims and purchases are paused. Contact support in the community.';

/** The header that carries the session's CSRF token on every write. */
export const csrfHeader = 'x-csrf-token';

export interface AdminSession {
  adminId: number;
  name: string;
  csrfToken: string;
  expiresAtMs: number;
}

export interface PlayerSummary {
  id: string;
  refcode: string;
  teleUsername: string;
  totalEarn: string;
  totalMoney: string;
  totalClick: number;
  inviteCnt: number;
  createdAtMs: number;
  lastActiveMs: number | null;
  frozenAt: string | null;
  languageCode: string | null;
}

export interface PlayerDetail extends PlayerSummary {
  refLevel: number;
  referredBy: string | null;
  teleAge: number;
  twUsername: string | null;
  twAge: number;
  isPremium: boolean;
  isClaimedWelcome: boolean;
  preWlComing: number;
  totalRef: string;
  totalMoneyRef: string;
  energyLevel: number;
  fingerLevel: number;
}

/** A page of a keyset-paged list: `next` is the cursor of the following page, null at the end. */
export interface Page<T> {
  items: T[];
  next: string | null;
}

export interface LedgerEntry {
  id: string;
  currency: 'DOLLAR' | 'MONEY';
  amount: string;
  kind: string;
  reference: string | null;
  createdAtMs: number;
}

export interface ReferralEntry {
  friendId: string;
  teleUsername: string;
  status: 'pending' | 'credited';
  bonus: string;
  totalEarn: string;
  createdAtMs: number;
}

export interface CheatSignal {
  userId: string;
  teleUsername: string;
  clippedBatches: number;
  refusedTaps: number;
  acceptedTaps: number;
  lastAtMs: number;
  frozen: boolean;
}

export interface AuditEntry {
  id: string;
  adminId: string;
  atMs: number;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** A task as the console edits it: every field of §3's Task that is not per player. */
export type TaskInput = Pick<Task, 'type' | 'handleType' | 'title' | 'titles' | 'image' | 'desc' | 'link' | 'reward' | 'isDaily' | 'needsCaptcha'> & {
  active: boolean;
};

export interface AdminTask extends TaskInput {
  id: number;
  sortOrder: number;
}

export interface DailyStatsRow {
  day: string;
  totalPlayers: number;
  newPlayers: number;
  activePlayers: number;
  taps: number;
  adsWatched: number;
  invited: number;
  bonusPaid: number;
}

export interface Dashboard {
  days: DailyStatsRow[];
  /** Referral funnel over all time: invited → reached $100 → bonus paid. */
  funnel: { invited: number; reached100: number; bonusPaid: number };
  updatedAtMs: number | null;
}

export type BroadcastSegment =
  | { kind: 'all' }
  | { kind: 'language'; languageCode: string }
  | { kind: 'active'; days: number }
  | { kind: 'test'; userIds: string[] };

export interface BroadcastButton {
  btnType: string;
  btnText: string;
  btnLink: string;
}

/** How a broadcast's recipients stand. */
export interface BroadcastCounts {
  sent: number;
  failed: number;
  blocked: number;
  uncertain: number;
  cancelled: number;
  pending: number;
}

export interface AdminBroadcast extends BroadcastCounts {
  id: number;
  message: string;
  btns: BroadcastButton[];
  segment: BroadcastSegment;
  total: number;
  createdAtMs: number;
  finishedAtMs: number | null;
  cancelledAtMs: number | null;
}

export interface ForecastSettlement {
  launchDay: string;
  settledAtMs: number;
  /** Right guesses paid by this call (0 when it ran before). */
  paid: number;
  /** Right guesses paid in all. */
  paidTotal: number;
}

/** One day of the daily loop's counts (docs/admin.md "Daily"), kept as the events happen. */
export interface DailyCounts {
  streakClaims: number;
  /** Combo cards found, and players who found all three (paid). */
  comboFinds: number;
  comboWins: number;
  cipherWins: number;
  cipherMisses: number;
  remindersQueued: number;
  /** Players found to have blocked the bot (never tried again). */
  remindersBlocked: number;
}

/** A day of the daily loop in the console: its combo and word, who chose them (null: the server's draw), and its counts. */
export interface AdminDailyDay {
  /** YYYY-MM-DD, a UTC day. */
  day: string;
  state: 'past' | 'today' | 'coming';
  combo: number[];
  comboSetBy: string | null;
  cipher: string;
  cipherSetBy: string | null;
  counts: DailyCounts;
}

/** PUT /daily/:day: a coming day's combo (three passive cards), word, or both; null goes back to the server's draw. */
export interface DailyPuzzleInput {
  combo?: number[] | null;
  cipher?: string | null;
}

/** A console API error: a field-level error names its field. */
export interface AdminError extends ErrorBody {
  /** Several field errors at once (task form). */
  fields?: Record<string, string>;
}
