import { economy } from '../../engine/rules/economy.ts';
import { money, type MoneyInput } from '../../engine/rules/money.ts';

/**
 * The one decision of when a friend's dollars release their pending invite bonus (§9: a friend is
 * pending while totalEarn is below $100): true when a credit takes totalEarn from below the
 * threshold to at or above it. Every dollar credit asks this once (creditDollars, and the click
 * group's plan per player), and a crossing then runs `settleInviteBonus` (ledger.ts) in the same
 * transaction, which pays the bonus if one is still pending.
 */
export const crossesInviteThreshold = (earnBefore: MoneyInput, earnAfter: MoneyInput): boolean => {
  const threshold = economy.pendingFriendThresholdDollars;
  return money(earnBefore).lt(threshold) && money(earnAfter).gte(threshold);
};
