/**
 * The economy table: every constant of spec §3 and §9 (and the server rules of docs/rules.md), each
 * number once, with its unit in its name. Client, worker and server all read this one table.
 */

/** Boost keys: 1 Handheld (click power), 2 Limit (energy), 3 Finger (auto-click), 4–21 passive items. */
export type BoostKey =
  | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11
  | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21;

/** How a boost's price grows: base × growth^level (spec §9 "Upgrade prices"). */
export interface BoostEntry {
  readonly key: BoostKey;
  readonly title: string;
  /** Price at level 0, in dollars (an integer). */
  readonly basePriceDollars: number;
  /** Price multiplier per level, as a numerator/denominator so prices stay exact (2/1 or 3/2). */
  readonly priceGrowth: { readonly num: number; readonly den: number };
  /** Dollars per second per level for items 4–21; the click or auto-click step for 1–3. */
  readonly perClick: number;
  /** Highest level that can be bought. */
  readonly maxLevel: number;
  /** A short description (items 4–21 per spec §3; boosts too, for the Booster tab). */
  readonly description: string;
  /** Image name under public/art/ (without extension). */
  readonly image: string;
}

const double = { num: 2, den: 1 } as const;
const halfAgain = { num: 3, den: 2 } as const;

/**
 * §9 gives maximum levels for items 4–21 only as "5028 down to 4638". We step linearly from
 * key 4 (5028) to key 21 (4638), rounding to the nearest level (docs/decisions.md).
 */
const itemMaxLevel = (key: number): number => Math.round(5028 - ((key - 4) * (5028 - 4638)) / 17);

const item = (
  key: BoostKey,
  title: string,
  basePriceDollars: number,
  perClick: number,
  description: string,
  image: string,
): BoostEntry => ({ key, title, basePriceDollars, priceGrowth: halfAgain, perClick, maxLevel: itemMaxLevel(key), description, image });

/** Spec §3 boost catalogue and §9 prices, per-click values and maximum levels. */
export const boostCatalogue: Readonly<Record<BoostKey, BoostEntry>> = {
  1: { key: 1, title: 'Handheld', basePriceDollars: 15, priceGrowth: double, perClick: 1, maxLevel: 5059, description: 'Earn more dollars with every tap.', image: 'boost-handheld' },
  2: { key: 2, title: 'Limit', basePriceDollars: 500, priceGrowth: double, perClick: 1, maxLevel: 5059, description: 'Raise your energy limit for longer tapping.', image: 'boost-limit' },
  3: { key: 3, title: 'Finger', basePriceDollars: 100, priceGrowth: halfAgain, perClick: 1, maxLevel: 5047, description: 'An extra finger taps for you every 10 seconds.', image: 'boost-finger' },
  4: item(4, 'Piggy Bank', 275, 2, 'A humble start: coins drip in while you rest.', 'item-piggy-bank'),
  5: item(5, 'Coin Jar', 750, 3, 'Spare change that keeps on adding up.', 'item-coin-jar'),
  6: item(6, 'Cash Register', 6_500, 13, 'Every sale rings in a little more.', 'item-cash-register'),
  7: item(7, 'Gold Safe', 17_500, 18, 'Locked-up gold that pays you interest.', 'item-gold-safe'),
  8: item(8, 'ATM Machine', 50_000, 20, 'Fees from every withdrawal, all day long.', 'item-atm-machine'),
  9: item(9, 'Stock Portfolio', 165_000, 22, 'Dividends arrive while the market moves.', 'item-stock-portfolio'),
  10: item(10, 'Real Estate', 510_000, 26, 'Rent collected from tenants every second.', 'item-real-estate'),
  11: item(11, 'Vending Machine', 1_500_000, 32, 'Snacks sold around the clock.', 'item-vending-machine'),
  12: item(12, 'Crypto Miner', 4_000_000, 40, 'Hash power that never sleeps.', 'item-crypto-miner'),
  13: item(13, 'Treasury Bond', 11_200_000, 52, 'Safe, steady coupon payments.', 'item-treasury-bond'),
  14: item(14, 'Luxury Yacht', 34_000_000, 86, 'Charter it out to the rich and famous.', 'item-luxury-yacht'),
  15: item(15, 'Casino', 84_000_000, 116, 'The house always wins.', 'item-casino'),
  16: item(16, 'Bank', 208_000_000, 168, 'Lend it out, earn the spread.', 'item-bank'),
  17: item(17, 'Trading Floor', 496_000_000, 240, 'Traders working your money at full speed.', 'item-trading-floor'),
  18: item(18, 'Hedge Fund', 22_720_000_000, 352, 'Two and twenty, on everyone else.', 'item-hedge-fund'),
  19: item(19, 'Prism of Wealth', 960_000_000_000, 664, 'Splits one coin into a rainbow of coins.', 'item-prism-of-wealth'),
  20: item(20, 'Luck Charm', 30_400_000_000_000, 1_024, 'Fortune favours its owner.', 'item-luck-charm'),
  21: item(21, 'Fractal Market', 2_160_000_000_000_000, 2_040, 'Markets inside markets, all paying you.', 'item-fractal-market'),
};

export const boostKeys = Object.keys(boostCatalogue).map(Number) as BoostKey[];
export const handheldKey = 1 satisfies BoostKey;
export const energyLimitKey = 2 satisfies BoostKey;
export const fingerKey = 3 satisfies BoostKey;
export const firstItemKey = 4 satisfies BoostKey;
export const lastItemKey = 21 satisfies BoostKey;
export const passiveItemKeys = boostKeys.filter((k) => k >= firstItemKey);

/** Spec §9 referral level table: friend limit and price in MONEY to reach the level. */
export interface ReferralLevel {
  readonly level: number;
  readonly friendLimit: number;
  readonly priceMoney: number;
}

const refLevel = (level: number, friendLimit: number, priceMoney: number): ReferralLevel => ({ level, friendLimit, priceMoney });

export const referralLevels: readonly ReferralLevel[] = [
  refLevel(1, 10, 0),
  refLevel(2, 20, 100),
  refLevel(3, 30, 200),
  refLevel(4, 50, 500),
  refLevel(5, 100, 1_000),
  refLevel(6, 200, 2_000),
  refLevel(7, 500, 5_000),
  refLevel(8, 1_000, 10_000),
  refLevel(9, 2_500, 20_000),
  refLevel(10, 5_000, 30_000),
  refLevel(11, 10_000, 40_000),
  refLevel(12, 20_000, 50_000),
  refLevel(13, 50_000, 75_000),
  refLevel(14, 100_000, 100_000),
];

/** Spec §2 title tiers: the title for a mean age (days) up to and including maxMeanAgeDays. */
export interface TitleTier {
  readonly name: string;
  readonly maxMeanAgeDays: number;
  readonly image: string;
}

export const titleTiers: readonly TitleTier[] = [
  { name: 'Cash Enthusiast', maxMeanAgeDays: 365, image: 'title-cash-enthusiast' },
  { name: 'Wealth Builder', maxMeanAgeDays: 1_095, image: 'title-wealth-builder' },
  { name: 'Profit Pro', maxMeanAgeDays: 1_825, image: 'title-profit-pro' },
  { name: 'Fortune Master', maxMeanAgeDays: 3_650, image: 'title-fortune-master' },
  { name: 'Rich Legend', maxMeanAgeDays: Number.POSITIVE_INFINITY, image: 'title-rich-legend' },
];

/** Spec §2 roadmap. */
export interface RoadmapPhase {
  readonly phase: number;
  readonly title: string;
  readonly date: string;
}

export const roadmap: readonly RoadmapPhase[] = [
  { phase: 1, title: 'Clicker launching', date: 'September 2024' },
  { phase: 2, title: 'Dollar clicking', date: 'September 2024' },
  { phase: 3, title: 'Dollar transferring', date: 'October 2024' },
  { phase: 4, title: 'The Great Snapshot', date: 'January 2025' },
  { phase: 5, title: '$MONEY withdrawal and trading', date: '1st Quarter 2025' },
  { phase: 6, title: 'Money Wallet', date: '2nd Quarter 2025' },
  { phase: 7, title: 'Money Aggregator', date: '2nd Quarter 2025' },
  { phase: 8, title: 'Money DAO', date: '3rd Quarter 2025' },
];

/** Everything else of §9 and docs/rules.md, one typed table with units in the names. */
export const economy = {
  // Clicking and energy (§9)
  energyPerLevel: 500,
  energyRegenIntervalMs: 5_000,
  energyPerTap: 1,
  startingFingerLevel: 1,
  startingEnergyLevel: 1,
  autoClickCap: 53,
  passiveTickMs: 1_000,
  autoClickIntervalMs: 10_000,
  offlineClaimIntervalMs: 90_000,
  clickBatchDebounceMs: 300,
  clickCounterResetIdleMs: 3_000,
  upgradeCooldownMs: 1_000,
  upgradeCooldownLabel: '1s',

  // Client timing the spec leaves open (docs/decisions/engine.md)
  /** A batch is sent at the latest this long after its first tap, even while tapping goes on. */
  clickBatchMaxWaitMs: 1_000,
  /** Unsent taps are written to the tap store at most this long after they happen. */
  unsentTapsPersistDelayMs: 100,
  /** Without requestAnimationFrame, snapshots are coalesced on this timer (one 60 Hz frame). */
  frameFallbackMs: 16,
  /** Client retries back off from this delay, doubling up to the cap (engine/client/retry.ts). */
  retryBaseMs: 1_000,
  retryMaxMs: 30_000,

  // Server rules (docs/rules.md §3–§5, §8)
  offlineRewardCapMs: 3 * 60 * 60 * 1_000,
  humanTapsPerSecond: 20,
  humanTapBurst: 40,
  /** Idle time that still earns tap credit: network blips deliver taps late, in one batch. */
  humanTapCreditWindowMs: 10_000,

  // Display (§9)
  compactAboveDollars: 500_000,
  walletCompactAboveDollars: 999_999_999_999,
  defaultDecimals: 2,
  compactDecimals: 1,
  wideLayoutPx: 375,

  // Tasks, referrals and paging (§9)
  boostTaskTarget: 10,
  adsPerDay: 10,
  pageSize: 10,
  pendingFriendThresholdDollars: 100,
  referralSharePercent: 5,
  refcodeLength: 6,
  refcodeAlphabet: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  inviteBonusMoney: 3,
  inviteBonusPremiumMoney: 49,
  maxReferralLevel: 14,

  // Welcome reward (docs/rules.md §10: a formula of teleAge, twAge and Premium)
  welcomeMoneyPerTelegramDay: 1,
  welcomeMoneyPerTwitterDay: 1,
  welcomePremiumBonusMoney: 500,
  easterEggRewardMoney: 777,

  // Timing (§9)
  exchangeCheckMs: 5_000,
  boostCheckDelayWithChannelMs: 10_000,
  boostCheckDelayMs: 500,
  onboardingProgressStepMs: 30,
  onboardingProgressStepPercent: 1,
  statsRefreshMs: 3_600_000,
  roadmapScrollPx: 400,
  toastDurationMs: 2_000,
  imageExportTimeoutMs: 30_000,

  // The daily loop (docs/rules.md §15): every day is a UTC day.
  /** The streak calendar: MONEY for the 1st…10th day in a row; from the 10th day on, the last step. */
  dailyStreakRewardsMoney: [10, 15, 20, 30, 40, 50, 65, 80, 100, 120],
  /** MONEY for upgrading all three of the day's combo cards that day. */
  dailyComboRewardMoney: 200,
  dailyComboCards: 3,
  /** A combo the server picks comes from items 4…this key (the first nine cards, reachable in a week). */
  dailyComboPoolLastKey: 12,
  /** MONEY for entering the day's cipher word. */
  dailyCipherRewardMoney: 100,
  /** Wrong cipher guesses a player may make in a day (26^n words cannot be guessed at this rate). */
  dailyCipherGuessesPerDay: 10,
  dailyCipherMaxLetters: 12,
  /** Morse on the coin: a press at least this long is a dash, a shorter one a dot. */
  morseDashMinMs: 250,
  /** A pause this long after a press ends the letter. */
  morseLetterGapMs: 900,
  /** A reminder waits until the player has been away this long. */
  reminderAwayMs: 60 * 60 * 1_000,
  /** A streak reminder must leave at least this long before the streak is lost at UTC midnight. */
  reminderStreakMarginMs: 60 * 60 * 1_000,
  /**
   * Quiet hours: an hour is the player's day when the three hours around it hold at least
   * 1/reminderAwakeShareDen of the hours they were ever active in (docs/rules.md §15.4).
   */
  reminderAwakeShareDen: 16,

  // Forecast and wallet (§9)
  forecastPrizeMoney: 7_777,
  /** The forecast's days the server accepts; the mini-app says so before sending anything else. */
  forecastMinDays: 1,
  forecastMaxDays: 36_500,
  rewardCardAmount: 25_235,
  dollarsPerMoney: 100_000_000_000,

  // Other (§9, §2)
  minimumUserAgeYears: 13,
  privacyReplyDays: 30,
  termsNoticeDays: 30,
  copyrightYear: 2024,
} as const;

export type Economy = typeof economy;
