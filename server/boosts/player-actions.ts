/** The player's own actions on the balance: passive claims, boost and referral upgrades, one-off rewards and the forecast. */
import { boostCatalogue, economy, energyLimitKey, handheldKey, type BoostKey } from '../../engine/rules/economy.ts';
import { availableEnergy } from '../../engine/rules/energy.ts';
import { toWire } from '../../engine/rules/money.ts';
import { passiveAccrued } from '../../engine/rules/passive.ts';
import { canUpgradeReferral, nextReferralLevel, priceOf } from '../../engine/rules/prices.ts';
import { welcomeReward } from '../../engine/rules/rewards.ts';
import { upgradeRefusalCode } from '../../engine/wire/refusals.ts';
import { boostLevel, upgradeRefusal } from '../../engine/rules/upgrades.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { appendLedger, creditDollars, creditMoney } from '../players/exports.ts';
import { loadUser, type UserRow } from '../players/exports.ts';
import { noteUpgrade, type PuzzleSource } from '../daily/exports.ts';

/**
 * The game's one-row transitions (claims and purchases), each one action in its own transaction
 * (server/core/db/transaction.ts) with the player's row locked; payXAgeReward is the one step
 * another action (the X link) runs in its transaction. Every rule comes from engine/; a refusal
 * throws and changes nothing.
 */

/** /claim: credits passive income since lastClaimedTime (capped at 3 h) and restarts accrual. */
const claimPassiveIn = async (tx: Queryable, userId: number, nowMs: number): Promise<{ claimed: string; row: UserRow }> => {
  const row = await loadUser(tx, userId, true);
  const amount = passiveAccrued(row.levels, row.last_claimed_ms, nowMs);
  // A clock step back never moves lastClaimedTime backwards (no double accrual).
  const claimedAt = Math.max(row.last_claimed_ms, nowMs);
  if (claimedAt !== row.last_claimed_ms) await tx.query('UPDATE users SET last_claimed_ms = $2 WHERE id = $1', [userId, claimedAt]);
  const claimed = amount.gt(0) ? await creditDollars(tx, { userId, amount, kind: 'passive', reference: `claim:${claimedAt}`, nowMs }) : '0';
  return { claimed, row: await loadUser(tx, userId) };
};

export const claimPassive = (db: Db, userId: number, nowMs: number): Promise<{ claimed: string; row: UserRow }> =>
  transaction(db, (tx) => claimPassiveIn(tx, userId, nowMs));

/**
 * /update-level: claims passive income first, then buys one level of `key` with one conditional
 * UPDATE (… WHERE total_earn >= price AND level = current), so a concurrent spend cannot overdraw.
 * The daily loop notes it in the same transaction: a combo find (docs/rules.md §15.2), a reminder's moment (§15.4).
 */
export const buyLevel = (db: Db, puzzles: PuzzleSource, userId: number, key: BoostKey, nowMs: number, reminderAwayMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    const { row } = await claimPassiveIn(tx, userId, nowMs);
    const owned = { fingerLevel: row.finger_level, energyLevel: row.energy_level, passiveEarnLevel: row.levels };
    const refusal = upgradeRefusal(key, owned, row.total_earn, '0');
    if (refusal !== null) throw refuse(upgradeRefusalCode[refusal], { field: 'levelKey' });
    const level = boostLevel(owned, key);
    const price = toWire(priceOf(key, level));
    let r;
    if (key === handheldKey) {
      r = await tx.query(
        'UPDATE users SET total_earn = total_earn - $2::numeric, finger_level = finger_level + 1 WHERE id = $1 AND total_earn >= $2::numeric AND finger_level = $3',
        [userId, price, level],
      );
    } else if (key === energyLimitKey) {
      // Materialise the energy regenerated so far, so the higher maximum does not back-date regeneration.
      const energy = availableEnergy(row.energy, row.energy_at_ms, nowMs, row.energy_level);
      r = await tx.query(
        `UPDATE users SET total_earn = total_earn - $2::numeric, energy_level = energy_level + 1, energy = $4, energy_at_ms = $5
         WHERE id = $1 AND total_earn >= $2::numeric AND energy_level = $3`,
        [userId, price, level, energy, nowMs],
      );
    } else {
      r = await tx.query(
        `UPDATE users SET total_earn = total_earn - $2::numeric, levels = jsonb_set(levels, ARRAY[$4::text], to_jsonb($3::int + 1))
         WHERE id = $1 AND total_earn >= $2::numeric AND COALESCE((levels ->> $4::text)::int, 0) = $3`,
        [userId, price, level, String(key)],
      );
    }
    if (r.rowCount !== 1) throw refuse('upgradeNotApplied', { field: 'levelKey' });
    await appendLedger(tx, [{ userId, currency: 'DOLLAR', amount: `-${price}`, kind: 'purchase', reference: `level:${key}:${level + 1}` }], nowMs);
    await noteUpgrade(tx, puzzles, userId, key, nowMs, reminderAwayMs);
    return loadUser(tx, userId);
  });

/** /update-ref-level: buys the next referral level (query `level` must name it) for MONEY. */
export const buyReferralLevel = (db: Db, userId: number, level: number, nowMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    const row = await loadUser(tx, userId, true);
    const next = nextReferralLevel(row.ref_level);
    if (next === undefined) throw refuse('refLevelAtMax', { field: 'level' });
    if (level !== next.level) throw refuse('refLevelNotNext', { field: 'level', values: { level: next.level } });
    if (!canUpgradeReferral(row.ref_level, row.total_money)) throw refuse('refLevelUnaffordable', { field: 'level', values: { level: next.level, price: next.priceMoney } });
    const r = await tx.query(
      `UPDATE users SET total_money = total_money - $2::numeric, ref_level = ref_level + 1
       WHERE id = $1 AND total_money >= $2::numeric AND ref_level = $3`,
      [userId, String(next.priceMoney), row.ref_level],
    );
    if (r.rowCount !== 1) throw refuse('upgradeNotApplied', { field: 'level' });
    if (next.priceMoney > 0)
      await appendLedger(tx, [{ userId, currency: 'MONEY', amount: `-${next.priceMoney}`, kind: 'ref-level', reference: `ref-level:${next.level}` }], nowMs);
    return loadUser(tx, userId);
  });

/**
 * /claim-welcome-rw: the welcome reward (engine welcomeReward of teleAge, twAge, Premium), once.
 * With X connected its X part is paid here; otherwise when X is connected later (payXAgeReward).
 */
export const claimWelcome = (db: Db, userId: number, nowMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    const row = await loadUser(tx, userId, true);
    if (row.is_claimed_welcome) throw refuse('rewardAlreadyClaimed');
    await tx.query('UPDATE users SET is_claimed_welcome = true, tw_reward_paid = tw_age > 0 WHERE id = $1', [userId]);
    await creditMoney(tx, { userId, amount: welcomeReward(row.tele_age, row.tw_age, row.is_premium), kind: 'welcome', reference: 'welcome', nowMs });
    return loadUser(tx, userId);
  });

/**
 * docs/rules.md §10 (X account age): a player who connects X after the welcome claim gets the welcome
 * reward's X part then, once, through the ledger with the referrer's 5 % (kind 'welcome'). Call it
 * in the transaction that sets tw_age. Returns the amount paid ('0' when nothing is due).
 */
export const payXAgeReward = async (tx: Queryable, userId: number, nowMs: number): Promise<string> => {
  const r = await tx.query<{ tw_age: number }>(
    'UPDATE users SET tw_reward_paid = true WHERE id = $1 AND is_claimed_welcome AND NOT tw_reward_paid AND tw_age > 0 RETURNING tw_age',
    [userId],
  );
  const due = r.rows[0];
  if (due === undefined) return '0';
  return creditMoney(tx, { userId, amount: welcomeReward(0, due.tw_age, false), kind: 'welcome', reference: 'welcome:x', nowMs });
};

/** /claim-easter-egg-rw: the Easter-egg reward, once ("You have claimed reward!" after). */
export const claimEaster = (db: Db, userId: number, nowMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    const row = await loadUser(tx, userId, true);
    if (row.is_claimed_easter) throw refuse('rewardAlreadyClaimed');
    await tx.query('UPDATE users SET is_claimed_easter = true WHERE id = $1', [userId]);
    await creditMoney(tx, { userId, amount: economy.easterEggRewardMoney, kind: 'easter', reference: 'easter', nowMs });
    return loadUser(tx, userId);
  });

/** /set-predict-wallet-coming: the forecast in days, once (the prize is paid later). */
export const setForecast = (db: Db, userId: number, days: number, nowMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    const r = await tx.query('INSERT INTO forecasts (user_id, days, created_at_ms) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO NOTHING', [userId, days, nowMs]);
    if (r.rowCount !== 1) throw refuse('forecastAlreadySubmitted', { field: 'days' });
    await tx.query('UPDATE users SET pre_wl_coming = $2 WHERE id = $1', [userId, days]);
    return loadUser(tx, userId);
  });

export const isPurchasableKey = (key: number): key is BoostKey => key in boostCatalogue;
