import { economy } from './economy.ts';

/** docs/rules.md §10: the welcome reward in MONEY from account ages (days) and Premium. */
export const welcomeReward = (teleAgeDays: number, twAgeDays: number, isPremium: boolean): number =>
  Math.floor(teleAgeDays) * economy.welcomeMoneyPerTelegramDay +
  Math.floor(twAgeDays) * economy.welcomeMoneyPerTwitterDay +
  (isPremium ? economy.welcomePremiumBonusMoney : 0);

/** §9, docs/rules.md §9: the invite bonus for both sides, +3, or +49 when the friend has Premium. */
export const inviteBonus = (friendIsPremium: boolean): number =>
  friendIsPremium ? economy.inviteBonusPremiumMoney : economy.inviteBonusMoney;
