/** What the boosts feature offers the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { payXAgeReward } from './player-actions.ts';
