/**
 * Wire types shared by the client and the server (spec §3, §7). Amounts are decimal strings,
 * never JS floats (docs/rules.md §2). Field names follow the spec, typos included (totalPaticipant).
 */
import type { AirdropReview } from './airdrop-review.ts';
import type { DailyStatus } from '../rules/daily.ts';
import type { DecimalString } from '../rules/money.ts';
import type { RefusalCode } from './refusals.ts';

// Two wire types live with the rule that makes them (the rules import nothing of the wire):
// the decimal string with money.ts's `toWire`, the player's day with daily.ts's `dailyStatusOf`.
export type { DailyStatus, DecimalString };

/** The API prefix of every call (spec §7). */
export const apiPrefix = '/money/api/v1/airdrop';

/** The Turnstile action a task-claim captcha is drawn with; siteverify must report it (docs/outside-services.md). */
export const claimTaskCaptchaAction = 'claim-task';

/** `ageReward` of the status call: the welcome reward and the mean age it came from. */
export interface AgeReward {
  avgAge: number;
  teleReward: DecimalString;
  twReward: DecimalString;
  premiumReward: DecimalString;
  total: DecimalString;
}

/** The user airdrop status (GET root); referred users share the shape. */
export interface UserStatus {
  id: string;
  refcode: string;
  refLevel: number;
  inviteCnt: number;
  teleUsername: string;
  teleAvatar: string | null;
  teleAge: number;
  twUsername: string | null;
  twAvatar: string | null;
  twAge: number;
  isPremium: boolean;
  /** Epoch ms of the next automatic offline claim. */
  nextClaimTime: number;
  /** Epoch ms of the last offline claim: passive income accrues from here. */
  lastClaimedTime: number;
  totalEarn: DecimalString;
  totalMoney: DecimalString;
  totalRef: DecimalString;
  totalMoneyRef: DecimalString;
  totalClick: number;
  /** Levels by key; key 3 is the auto-click Finger level, 4–21 the passive items. */
  passiveEarnLevel: Record<string, number>;
  fingerLevel: number;
  energyLevel: number;
  availableEnergy: number;
  ageReward: AgeReward;
  offlinePassiveReward: DecimalString;
  offlinePassiveRewardPerSecond: DecimalString;
  pendingClaimReward: DecimalString;
  pendingEasterReward: DecimalString;
  isClaimedWelcome: boolean;
  isClaimedEaster: boolean;
  /** Forecast in days: absent = unknown, 0 = not submitted, > 0 = submitted. */
  preWlComing?: number;
  boostChannelCnt: number;
  /** The server's clock (epoch ms) when this status was computed: the client's energy origin. */
  serverTime: number;
  /** Present and true while an operator has frozen the player: taps, claims and purchases are refused. */
  isFrozen?: boolean;
  /** The integrity review before the airdrop snapshot (docs/airdrop.md "Integrity review"): reasons only while not clear. */
  airdropReview: AirdropReview;
  /** The locale the player chose on the profile card (`POST /language`), null until chosen: the mini-app starts in it (docs/i18n.md). */
  language?: string | null;
  /** The daily loop on the server's UTC day (docs/rules.md §15): streak, combo, cipher, reminders. */
  daily?: DailyStatus;
  /** Epoch ms (server clock) until which a bought double-tap stretch doubles the tap value; absent or in the past: none (docs/shop.md). */
  tapBoostUntil?: number;
}

/** The answer to `POST /daily/streak`: the MONEY paid and the fresh state. */
export interface DailyClaimResult {
  claimed: DecimalString;
  status: UserStatus;
}

/** The answer to `POST /daily/cipher`: right or wrong (never more), the MONEY paid and the fresh state. */
export interface CipherGuessResult {
  correct: boolean;
  claimed: DecimalString;
  status: UserStatus;
}

/** The body of `POST /daily/cipher`: the word entered in Morse, as letters A–Z. */
export interface CipherGuessPayload {
  word: string;
}

/** The body of `POST /daily/reminders`: whether the bot may send reminders. */
export interface RemindersPayload {
  on: boolean;
}

/** The body of `POST /language`: one of the nine locales (engine/rules/i18n/locales.ts), or null to follow Telegram's language again. */
export interface LanguagePayload {
  language: string | null;
}

export type TaskType = 'TASK1' | 'SOCIAL' | 'INVITE' | 'EXCHANGE' | 'ACHIVEMENT' | 'ADS' | 'DAILY_TASK' | 'INVITE_TASK';
export type TaskHandleType = 'BOOST' | 'REF' | 'CHECK_USERNAME' | 'CHECK_ONUS' | 'CHECK_BINGX';

export interface Task {
  id: number;
  type: TaskType;
  handleType: TaskHandleType | null;
  /** The English title, shown in any language the task has no title of its own in. */
  title: string;
  /** The title in other languages, by locale (engine/rules/i18n/locales.ts): only those the console set. */
  titles: Record<string, string>;
  image: string;
  desc: string;
  /** A URL, or a numeric threshold for invite, ads and achievement tasks. */
  link: string;
  reward: DecimalString;
  isDaily: boolean;
  hasDone: boolean;
  numberOfDone: number;
  needsCaptcha: boolean;
}

export interface FriendEntry {
  teleUsername: string;
  totalMoney: DecimalString;
  totalMoneyRef: DecimalString;
  totalEarn: DecimalString;
  /** What the invite bonus still waits for (§9: click $100, join the channel); empty once paid. */
  waitingFor?: FriendWait[];
  /** MONEY the player has earned from this friend: the invite bonus once released plus every 5% share (Invite's "+X"). */
  earned: DecimalString;
}

/** A condition of the invite bonus a friend has not met yet (§9). */
export type FriendWait = 'clicks' | 'channel';

/** POST /invite/prepared: a prepared inline message (Bot API 8.0) the mini-app shares with WebApp.shareMessage. */
export interface PreparedInvite {
  id: string;
  /** Unix seconds after which Telegram no longer shares it. */
  expirationDate: number;
}

export interface LeaderboardEntry {
  id: string;
  rank: number;
  teleUsername: string;
  teleAvatar: string | null;
  twUsername: string | null;
  reward: DecimalString;
  totalEarn: DecimalString;
  totalMoney: DecimalString;
  totalRef: DecimalString;
}

/** A page of a list call (friends, leaderboard): 10 items a page (§9). */
export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/**
 * /get-ref-users: a page of friends with the counts and the total read beside it, so Invite's
 * Total Bonus and the friends' "+X" come from one answer (docs/api.md).
 */
export interface FriendsPage extends Page<FriendEntry> {
  /** Friends whose invite bonus still waits (a maintained count, over every page). */
  pending: number;
  /** totalRef + totalMoneyRef: invite bonuses and 5% shares, what the rows' "+X" add up to. */
  totalBonus: DecimalString;
}

export interface SocialConnect {
  twUsername: string | null;
  twAge: number;
  twAvatar: string | null;
  pendingClaimReward: DecimalString;
}

export interface PublicStats {
  totalClick: number;
  totalPaticipant: number;
  totalEarn: DecimalString;
}

export interface ClaimTaskPayload {
  taskId: number;
  captchaToken?: string;
  inputValue?: string;
}

export interface AdsRewardPayload {
  taskId: number;
  encryptData: string;
}

/** `POST /click`: `click` taps, with an idempotency key and a per-session sequence number. */
export interface ClickPayload {
  click: number;
  batchId?: string;
  seq?: number;
  /** The device's clock (ms) at the batch's first tap: the review's cadence (docs/airdrop.md). */
  firstTapMs?: number;
}

/** The answer to `POST /click`: how many taps were accepted, and the fresh state. */
export interface ClickResult {
  batchId: string | null;
  accepted: number;
  status: UserStatus;
}

/** The answer to `POST /claim`: the passive income credited, and the fresh state. */
export interface ClaimResult {
  claimed: DecimalString;
  status: UserStatus;
}

export interface UpdateLevelPayload {
  levelKey: number;
}

export interface SendMessageButton {
  btnType: string;
  btnText: string;
  btnLink: string;
}

export interface SendMessagePayload {
  message: string;
  btns: SendMessageButton[];
}

/**
 * Every error's body (docs/api.md "Errors"): the spec's `error` and `message`, the input `field`
 * it is about, and the stable `code` clients switch on (engine/wire/refusals.ts). The server sends a
 * code on every 4xx and 5xx; a client still reads a body with `refusalOf` (engine/wire/error-body.ts),
 * which keeps only the codes it knows.
 */
export interface ErrorBody {
  error: string;
  message: string;
  field?: string;
  code: RefusalCode;
  /** Several field errors at once, each bad field with its problem (the console's task form, docs/api.md "Errors"). */
  fields?: Record<string, string>;
}

/**
 * Runtime configuration the server gives the client: a JSON data block
 * `<script type="application/json" id="money-config">` that the server writes into index.html
 * (data blocks do not execute, so the CSP needs no inline-script allowance).
 */
export interface PublicConfig {
  /** The bot's username without @, for t.me links. */
  botUsername: string;
  /** The social network (X) profile URL. */
  twitterUrl: string;
  /** The Telegram channel URL. */
  channelUrl: string;
  /** The community group URL. */
  communityUrl: string;
  /** Adsgram block id for the ads task; empty disables ads ("Watch video failed"). */
  adsgramBlockId: string;
  /** Cloudflare Turnstile site key; empty when captcha is off. */
  turnstileSiteKey: string;
  /** The Telegram user id that gets the story share instead of the link share (§2 onboarding). */
  storyShareUserId: string;
  /** Base of the API, normally apiPrefix on the same origin. */
  apiBase: string;
  /** The airdrop's published days, YYYY-MM-DD (the site's /airdrop page); absent until announced. */
  airdropDates?: { reviewEnds: string | null; snapshotDay: string | null };
  /** Outside services played by local demo stand-ins (`npm start` without credentials); the UI marks them "demo". */
  demoServices?: DemoService[];
  /** The exchange id the demo's partner exchanges know. */
  demoExchangeUid?: string;
}

/** An outside service the demo can stand in for (docs/outside-services.md "Demo stand-ins"). */
export type DemoService = 'turnstile' | 'x' | 'exchanges' | 'telegram' | 'ads';

/** Where the demo serves the browser-facing halves of its stand-ins (same origin as the app). */
export const demoPaths = {
  turnstileScript: '/dev/demo/turnstile.js',
  turnstileSolve: '/dev/demo/turnstile/solve',
  adsgramScript: '/dev/demo/adsgram.js',
  adsgramWatched: '/dev/demo/adsgram/watched',
  telegramPage: '/dev/demo/t.me/',
  /** The demo's Stars payment sheet (docs/shop.md "Demo"): the script, an invoice's title and price, and paying it. */
  starsScript: '/dev/demo/stars.js',
  starsInvoice: '/dev/demo/stars/invoice',
  starsPay: '/dev/demo/stars/pay',
} as const;

/** The player's TON wallet and airdrop allocation (GET /wallet; docs/airdrop.md). */
export interface WalletInfo {
  /** The linked wallet, raw form `0:<hex>`, or null. */
  address: string | null;
  /** The same address, user-friendly (non-bounceable), for display. */
  friendlyAddress: string | null;
  /** The player's allocation in the newest snapshot, or null before it (or without one). */
  allocation: { round: number; amount: DecimalString; startFrom: number; expireAt: number } | null;
}

/** What the mini-app posts after TON Connect (POST /wallet/link): the SDK's account and ton_proof. */
export interface WalletLinkPayload {
  address: string;
  network?: string;
  publicKey?: string;
  walletStateInit: string;
  proof: { timestamp: number; domain: { lengthBytes: number; value: string }; signature: string; payload: string };
}
