import { isAirdropReasonCode } from '../../engine/wire/airdrop-review.ts';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import { availableEnergy } from '../../engine/rules/energy.ts';
import { toWire } from '../../engine/rules/money.ts';
import { passiveAccrued, passivePerSecond } from '../../engine/rules/passive.ts';
import { welcomeReward } from '../../engine/rules/rewards.ts';
import { dailyStatusOf, type DailyRecord } from '../../engine/rules/daily.ts';
import { meanAgeDays } from '../../engine/rules/titles.ts';
import type { Queryable } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';

/** A users row as the database returns it (NUMERIC as decimal strings, BIGINT as numbers). */
export interface UserRow {
  id: number;
  refcode: string;
  ref_level: number;
  invite_cnt: number;
  referred_by: number | null;
  tele_username: string;
  tele_name: string;
  tele_avatar: string | null;
  tele_age: number;
  tw_username: string | null;
  tw_avatar: string | null;
  tw_age: number;
  is_premium: boolean;
  total_earn: string;
  total_money: string;
  total_ref: string;
  total_money_ref: string;
  total_click: number;
  finger_level: number;
  energy_level: number;
  levels: Record<string, number>;
  energy: number;
  energy_at_ms: number;
  tap_clock_ms: number;
  last_claimed_ms: number;
  is_claimed_welcome: boolean;
  /** The welcome reward's X part has been paid (with the claim, or when X was connected after it). */
  tw_reward_paid: boolean;
  is_claimed_easter: boolean;
  pre_wl_coming: number;
  boost_channel_cnt: number;
  created_at_ms: number;
  /** Set while an operator has frozen the player (docs/admin.md "Freeze"). */
  frozen_at?: Date | string | null;
  /** The locale chosen on the profile card, null until chosen (docs/i18n.md). */
  language?: string | null;
  /** The integrity review's state and reasons as the player sees them (server/integrity/), null while clear. */
  airdrop_review?: 'review' | 'excluded' | null;
  airdrop_reasons?: string[] | null;
  /** A bought double-tap stretch runs until then (migration 1000, docs/shop.md); 0 = none. */
  tap_boost_until_ms?: number;
  /** Taps bought in the shop (auto-tap packs, refilled energy) and the MONEY of achievements they were needed for (docs/airdrop.md "Bought boosts"). */
  bought_clicks?: number;
  bought_money?: string;
  // The daily loop (migration 0950, docs/rules.md §15); absent in rows read before it.
  daily_streak_day?: number;
  daily_streak_count?: number;
  daily_combo_day?: number;
  daily_combo_found?: number[];
  daily_cipher_day?: number;
  daily_cipher_solved?: boolean;
  daily_cipher_misses?: number;
  reminders_off?: boolean;
}

/** Reads a player's row; `forUpdate` locks it until the transaction ends. */
export const loadUser = async (q: Queryable, userId: number, forUpdate = false): Promise<UserRow> => {
  const r = await q.query<UserRow>(`SELECT * FROM users WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [userId]);
  const row = r.rows[0];
  if (row === undefined) throw refuse('userNotFound');
  return row;
};

/** The welcome reward split the status call shows as ageReward (engine/rules/rewards.ts formula). */
export const ageRewardOf = (row: Pick<UserRow, 'tele_age' | 'tw_age' | 'is_premium'>): UserStatus['ageReward'] => ({
  avgAge: meanAgeDays(row.tele_age, row.tw_age),
  teleReward: toWire(welcomeReward(row.tele_age, 0, false)),
  twReward: toWire(welcomeReward(0, row.tw_age, false)),
  premiumReward: toWire(welcomeReward(0, 0, row.is_premium)),
  total: toWire(welcomeReward(row.tele_age, row.tw_age, row.is_premium)),
});

/** What a row holds of the player's day (docs/rules.md §15). */
export const dailyRecordOf = (row: UserRow): DailyRecord => ({
  streak: { lastDay: Number(row.daily_streak_day ?? 0), count: row.daily_streak_count ?? 0 },
  comboDay: row.daily_combo_day ?? 0,
  comboFound: (row.daily_combo_found ?? []).map(Number),
  cipherDay: row.daily_cipher_day ?? 0,
  cipherSolved: row.daily_cipher_solved === true,
  cipherMisses: row.daily_cipher_misses ?? 0,
  remindersOff: row.reminders_off === true,
});

/** The spec §3 user status of a row at nowMs (the server's clock). */
export const statusOf = (row: UserRow, nowMs: number): UserStatus => {
  const levels = { ...row.levels };
  const ageReward = ageRewardOf(row);
  return {
    id: String(row.id),
    refcode: row.refcode,
    refLevel: row.ref_level,
    inviteCnt: row.invite_cnt,
    teleUsername: row.tele_username,
    teleAvatar: row.tele_avatar,
    teleAge: row.tele_age,
    twUsername: row.tw_username,
    twAvatar: row.tw_avatar,
    twAge: row.tw_age,
    isPremium: row.is_premium,
    nextClaimTime: row.last_claimed_ms + economy.offlineClaimIntervalMs,
    lastClaimedTime: row.last_claimed_ms,
    totalEarn: toWire(row.total_earn),
    totalMoney: toWire(row.total_money),
    totalRef: toWire(row.total_ref),
    totalMoneyRef: toWire(row.total_money_ref),
    totalClick: row.total_click,
    passiveEarnLevel: levels,
    fingerLevel: row.finger_level,
    energyLevel: row.energy_level,
    availableEnergy: availableEnergy(row.energy, row.energy_at_ms, nowMs, row.energy_level),
    ageReward,
    offlinePassiveReward: toWire(passiveAccrued(levels, row.last_claimed_ms, nowMs)),
    offlinePassiveRewardPerSecond: toWire(passivePerSecond(levels)),
    pendingClaimReward: row.is_claimed_welcome ? '0' : ageReward.total,
    pendingEasterReward: row.is_claimed_easter ? '0' : toWire(economy.easterEggRewardMoney),
    isClaimedWelcome: row.is_claimed_welcome,
    isClaimedEaster: row.is_claimed_easter,
    preWlComing: row.pre_wl_coming,
    boostChannelCnt: row.boost_channel_cnt,
    serverTime: nowMs,
    language: row.language ?? null,
    airdropReview: { state: row.airdrop_review ?? 'clear', reasons: (row.airdrop_reasons ?? []).filter(isAirdropReasonCode) },
    daily: dailyStatusOf(dailyRecordOf(row), nowMs),
    ...(row.frozen_at != null ? { isFrozen: true } : {}),
    ...((row.tap_boost_until_ms ?? 0) > nowMs ? { tapBoostUntil: row.tap_boost_until_ms! } : {}),
  };
};

/** How long the bot waits for a player's chosen language before it answers in Telegram's. */
const chosenLanguageWaitMs = 1_000;

/**
 * The language a player chose in the mini-app (`users.language`, docs/i18n.md), or null when none
 * was chosen, the player is unknown, or the database does not answer within a second.
 */
export const chosenLanguageOf =
  (q: Queryable) =>
  async (userId: number): Promise<string | null> => {
    const read = q.query<{ language: string | null }>('SELECT language FROM users WHERE id = $1', [userId]).then((r) => r.rows[0]?.language ?? null);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), chosenLanguageWaitMs);
    });
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
      read.catch(() => {});
    }
  };

/** POST /language: the player's chosen language (null follows Telegram's again); the row, or null when there is no such player. */
export const setLanguage = async (q: Queryable, userId: number, language: string | null): Promise<UserRow | null> => {
  const r = await q.query<UserRow>('UPDATE users SET language = $2 WHERE id = $1 RETURNING *', [userId, language]);
  return r.rows[0] ?? null;
};
