import { economy, roadmap, titleTiers, type TitleTier } from './economy.ts';

/** §2: the mean of teleAge and twAge, in days. */
export const meanAgeDays = (teleAgeDays: number, twAgeDays: number): number => (teleAgeDays + twAgeDays) / 2;

/** §2: the title tier for a mean age in days ("up to" is inclusive). */
export const titleFor = (teleAgeDays: number, twAgeDays: number): TitleTier => {
  const mean = meanAgeDays(teleAgeDays, twAgeDays);
  return titleTiers.find((t) => mean <= t.maxMeanAgeDays) ?? titleTiers[titleTiers.length - 1]!;
};

const monthNames = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

/** "September 2024" for a calendar month: the English long format of §4. */
export const monthYearLabel = (year: number, monthIndex: number): string => `${monthNames[monthIndex]} ${year}`;

/**
 * §4: a phase is highlighted when its date text equals the current month and year in English long
 * format. Quarter dates ("1st Quarter 2025") never match.
 */
export const isRoadmapActive = (date: string, year: number, monthIndex: number): boolean =>
  date === monthYearLabel(year, monthIndex);

/** The roadmap with each phase's highlight for a calendar month. */
export const roadmapFor = (year: number, monthIndex: number) =>
  roadmap.map((p) => ({ ...p, isRoadmapActive: isRoadmapActive(p.date, year, monthIndex) }));

/**
 * §2/§5: a start parameter registers a referral when it is exactly 6 characters and differs from
 * the user's own refcode.
 */
export const isReferralStartParam = (startParam: string | null | undefined, ownRefcode: string | null | undefined): boolean =>
  typeof startParam === 'string' && startParam.length === economy.refcodeLength && startParam !== ownRefcode;

/** DESIGN.md: a refcode is 6 characters of [A-Za-z0-9]. */
export const isRefcode = (value: string): boolean =>
  value.length === economy.refcodeLength && [...value].every((c) => economy.refcodeAlphabet.includes(c));

/**
 * Makes a refcode from 6 random integers (randomness comes in as an argument: engine/ never
 * reads Math.random).
 */
export const refcodeFrom = (randomInts: readonly number[]): string =>
  randomInts
    .slice(0, economy.refcodeLength)
    .map((n) => economy.refcodeAlphabet[Math.abs(n) % economy.refcodeAlphabet.length])
    .join('');

/** DESIGN.md: the welcome reward in MONEY from account ages (days) and Premium. */
export const welcomeReward = (teleAgeDays: number, twAgeDays: number, isPremium: boolean): number =>
  Math.floor(teleAgeDays) * economy.welcomeMoneyPerTelegramDay +
  Math.floor(twAgeDays) * economy.welcomeMoneyPerTwitterDay +
  (isPremium ? economy.welcomePremiumBonusMoney : 0);

/** §9/DESIGN.md: the invite bonus for both sides, +3, or +49 when the friend has Premium. */
export const inviteBonus = (friendIsPremium: boolean): number =>
  friendIsPremium ? economy.inviteBonusPremiumMoney : economy.inviteBonusMoney;
