/** What the players feature offers the other features: they import it from here and nowhere else (docs/architecture.md, "Server layout"). */
export type { VerifiedInitData } from './init-data.ts';
export { crossesInviteThreshold } from './invite-bonus.ts';
export { appendLedger, changeBalance, creditDollars, creditMoney, insertLedgerSql, settleInviteBonus } from './ledger.ts';
export { chosenLanguageOf, loadUser } from './users.ts';
export type { UserRow } from './users.ts';
