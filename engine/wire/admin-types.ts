/**
 * Wire types of the operator console's API (docs/admin.md), shared by server/ and src/admin/.
 * Amounts are decimal strings, times epoch milliseconds, as in api-types.ts.
 */
import type { ErrorBody, Task } from './api-types.ts';
import type { Locale } from '../rules/i18n/locales.ts';
import type { OrderState, ShopEffect } from '../rules/shop.ts';

/** The console API lives beside the game API, outside its prefix (its own cookie path). */
export const adminApiPrefix = '/money/api/admin';

/** What a frozen player is told; its home is engine/wire/refusals.ts, beside its code (`frozen`). */
export { frozenPlayerMessage } from './refusals.ts';

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

/** POST /players/:id/freeze: the player and since when they are frozen (null: not frozen). */
export interface FreezeResult {
  id: string;
  frozenAt: string | null;
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

/** A queued broadcast (the console's POST /broadcasts and the operator's POST /public/send-telemss): its id and recipients. */
export interface BroadcastQueued {
  broadcastId: number;
  total: number;
}

/** POST /broadcasts/:id/cancel: the recipients it took off the queue. */
export interface BroadcastCancelled {
  id: number;
  cancelled: number;
}

export interface ForecastSettlement {
  launchDay: string;
  settledAtMs: number;
  /** Right guesses paid by this call (0 when it ran before). */
  paid: number;
  /** Right guesses paid in all. */
  paidTotal: number;
}

/** The settlement as it stands (GET /forecast, GET /public/settle-forecast): null until settled. */
export interface ForecastState {
  settlement: { launchDay: string; settledAtMs: number; settledBy: string; paidTotal: number; forecasts: number } | null;
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

/** An item of the Stars shop's catalog (docs/shop.md "Catalog"): a price in Stars, a daily limit, an on/off switch, a title in every language. */
export interface AdminShopItem {
  id: string;
  effect: ShopEffect;
  priceStars: number;
  /** Hours of double taps, taps of a pack; 0 for an energy refill. */
  amount: number;
  dailyLimit: number;
  enabled: boolean;
  titles: Record<Locale, string>;
  position: number;
}

/** POST /shop/items/:id: the fields to change; each is checked and a refusal names it. */
export interface AdminShopItemEdit {
  priceStars?: number;
  amount?: number;
  dailyLimit?: number;
  enabled?: boolean;
  titles?: Record<string, string>;
}

/** One UTC day's Stars revenue of one item (docs/shop.md "Records"). */
export interface AdminShopRevenueDay {
  /** YYYY-MM-DD. */
  day: string;
  itemId: string;
  orders: number;
  stars: number;
  refunds: number;
  refundedStars: number;
}

/** What the reconciliation job found between our payments and getStarTransactions. */
export type StarsProblem = 'unknownHere' | 'missingAtTelegram' | 'starsDiffer' | 'refundDiffers';
export interface AdminStarsFlag {
  chargeId: string;
  problem: StarsProblem;
  detail: string;
  foundAtMs: number;
}

/** A payment no order could take (gone, or a second charge of a paid order), waiting for its refund. */
export interface AdminUnmatchedPayment {
  chargeId: string;
  userId: string;
  stars: number;
  receivedAtMs: number;
}

/** GET /shop: the catalog, revenue a day by item, the reconciliation's flags and the payments to refund. */
export interface AdminShop {
  /** The server's UTC day (YYYY-MM-DD): the last day of `revenue`. */
  today: string;
  items: AdminShopItem[];
  revenue: AdminShopRevenueDay[];
  flags: AdminStarsFlag[];
  unmatched: AdminUnmatchedPayment[];
}

/** An order as the console lists it (GET /shop/orders, newest first). */
export interface AdminShopOrder {
  id: string;
  userId: string;
  itemId: string;
  priceStars: number;
  state: OrderState;
  createdAtMs: number;
  paidAtMs: number | null;
  refundedAtMs: number | null;
  chargeId: string | null;
  /** What a refund could not take back (energy spent, doubled time played, dollars spent). */
  notTakenBack: Record<string, number | string> | null;
}

/** POST /shop/orders/:id/refund: what was taken back and what could not be. */
export interface AdminRefundResult {
  orderId: string;
  state: OrderState;
  taken: Record<string, number | string>;
  notTaken: Record<string, number | string>;
}

/** A console API error: the one error body (a field-level error names its field; the task form's names every one in `fields`). */
export type AdminError = ErrorBody;

/** What becomes of the MONEY of players the integrity review excluded from an airdrop round (docs/airdrop.md "Exclusions"). */
export type ExcludedMoney = 'unminted' | 'redistributed';
export const excludedMoneyChoices: readonly ExcludedMoney[] = ['unminted', 'redistributed'];

/** An airdrop round's snapshot, as the operator asks for it (console and operator API, docs/airdrop.md). */
export interface RoundParams {
  round: number;
  /** What becomes of the excluded players' MONEY (default: left unminted); fixed once the round is frozen. */
  excludedMoney?: ExcludedMoney;
  /** Unix seconds (TEP-177 start_from / expired_at). */
  startFrom: number;
  expireAt: number;
}

/** An airdrop round as both doors answer it. */
export interface RoundSummary extends RoundParams {
  status: 'building' | 'built';
  wallets: number;
  /** Jetton units, decimal string. */
  totalAmount: string;
  /** Hex of the dictionary cell's hash: the jetton master's merkle_root. */
  merkleRoot: string | null;
  bocBytes: number | null;
  excludedMoney: ExcludedMoney;
  /** Players left out by the integrity review, their withheld jetton units, and how many had each reason. */
  excludedPlayers: number;
  excludedAmount: string;
  excludedReasons: Record<string, number>;
}
