/** What the players feature offers the routes and the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export type { VerifiedInitData } from './init-data.ts';
export { crossesInviteThreshold } from './invite-bonus.ts';
export { appendLedger, changeBalance, creditDollars, creditMoney, insertLedgerSql, settleInviteBonus } from './ledger.ts';
export { chosenLanguageOf, loadUser } from './users.ts';
export type { UserRow } from './users.ts';
export { playerOf } from './authenticate.ts';
export type { Authenticate } from './authenticate.ts';
export type { FrozenSet } from './frozen-set.ts';
export { initDataSecret, verifyInitData } from './init-data.ts';
export { setLanguage, statusOf } from './users.ts';
