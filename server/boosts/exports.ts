/** What the boosts feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { payXAgeReward } from './player-actions.ts';
export { buyLevel, buyReferralLevel, claimEaster, claimPassive, claimWelcome, isPurchasableKey, setForecast } from './player-actions.ts';
