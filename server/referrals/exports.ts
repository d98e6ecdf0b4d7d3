/** What the referrals feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export { runChannelChecks } from './channel-rule.ts';
export type { ChannelCheckResult, MembershipCheck } from './channel-rule.ts';
export { pokeChannelCheck } from './channel-rule.ts';
export { prepareInvite } from './prepared-invite.ts';
export { refLinkOf } from './ref-link.ts';
export { listFriends, maxPageSize, registerReferral } from './referrals.ts';
export { referralsSettings } from './settings.ts';
