/**
 * The airdrop snapshot's one question to the review (docs/airdrop.md "Exclusions"): is this users
 * row (alias `u`) excluded? Players under review and not decided stay in the snapshot.
 */
export const excludedPlayerSql = "COALESCE(u.airdrop_review = 'excluded', false)";
