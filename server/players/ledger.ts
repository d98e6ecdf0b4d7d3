import { economy } from '../../engine/rules/economy.ts';
import { money, roundCents, toWire, type MoneyInput } from '../../engine/rules/money.ts';
import type { Queryable } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';
import { crossesInviteThreshold } from './invite-bonus.ts';

export type Currency = 'DOLLAR' | 'MONEY';
/** A ledger row's currency: a balance's, or Telegram Stars (XTR), the record of what a shop order was paid and refunded (docs/shop.md). */
export type LedgerCurrency = Currency | 'XTR';

/** Kinds of MONEY claim that pay the referrer 5 % (welcome, Easter egg, tasks, ads as a task, the forecast prize, the daily loop's streak, combo and cipher). */
export const referrerShareKinds: ReadonlySet<string> = new Set(['welcome', 'easter', 'task', 'ads', 'forecast', 'daily-streak', 'daily-combo', 'daily-cipher']);

export interface Credit {
  userId: number;
  /** Positive to credit, negative to debit; rounded down to the cent when credited. */
  amount: MoneyInput;
  /** What the change is for: 'click', 'passive', 'purchase', 'welcome', 'task', 'ads', … */
  kind: string;
  /** What it refers to: a batchId, `task:7`, `level:4:12`, … */
  reference?: string | null;
  nowMs: number;
}

const column: Record<Currency, string> = { DOLLAR: 'total_earn', MONEY: 'total_money' };

/**
 * The one way a ledger row is written: an INSERT of the rows `source` yields as columns
 * (u, c, a, k, r) = (user id, currency, amount, kind, reference), at time `nowParam` (a `$n`).
 * appendLedger uses it, and so does the grouped click write (click-sql.ts) inside its statement.
 */
export const insertLedgerSql = (source: string, nowParam: string): string =>
  `INSERT INTO ledger (user_id, currency, amount, kind, reference, created_at_ms) SELECT l.u, l.c, l.a, l.k, l.r, ${nowParam}::bigint FROM ${source}`;

/** Appends ledger rows (one statement); callers change the balance in the same transaction. */
export const appendLedger = async (
  tx: Queryable,
  rows: readonly { userId: number; currency: LedgerCurrency; amount: MoneyInput; kind: string; reference?: string | null }[],
  nowMs: number,
): Promise<void> => {
  if (rows.length === 0) return;
  await tx.query(
    insertLedgerSql('unnest($1::bigint[], $2::text[], $3::numeric[], $4::text[], $5::text[]) AS l(u, c, a, k, r)', '$6'),
    [rows.map((r) => r.userId), rows.map((r) => r.currency), rows.map((r) => toWire(r.amount)), rows.map((r) => r.kind), rows.map((r) => r.reference ?? null), nowMs],
  );
};

/**
 * Changes one balance and appends its ledger row, in the caller's transaction. A debit that would
 * go below zero changes nothing and returns null; otherwise returns the new balance.
 */
export const changeBalance = async (tx: Queryable, currency: Currency, c: Credit): Promise<string | null> => {
  const amount = money(c.amount);
  if (amount.isZero()) {
    const r = await tx.query<{ v: string }>(`SELECT ${column[currency]} AS v FROM users WHERE id = $1`, [c.userId]);
    return r.rows[0]?.v ?? null;
  }
  const col = column[currency];
  const r = await tx.query<{ v: string }>(
    `UPDATE users SET ${col} = ${col} + $2::numeric WHERE id = $1 AND ${col} + $2::numeric >= 0 RETURNING ${col} AS v`,
    [c.userId, toWire(amount)],
  );
  const v = r.rows[0]?.v;
  if (v === undefined) return null;
  await appendLedger(tx, [{ userId: c.userId, currency, amount, kind: c.kind, reference: c.reference ?? null }], c.nowMs);
  return v;
};

/**
 * Credits MONEY to a player (ledger row included) and, for claim kinds (welcome, easter, task,
 * ads), 5 % to their referrer, recorded as the referrer's totalMoneyRef. Returns the amount credited.
 */
export const creditMoney = async (tx: Queryable, c: Credit): Promise<string> => {
  const amount = roundCents(c.amount, 'credit');
  if (amount.isNegative()) throw refuse('negativeCredit', { values: { amount: amount.toString() } });
  await changeBalance(tx, 'MONEY', { ...c, amount });
  if (referrerShareKinds.has(c.kind) && amount.gt(0)) {
    const r = await tx.query<{ referred_by: number | null }>('SELECT referred_by FROM users WHERE id = $1', [c.userId]);
    const referrer = r.rows[0]?.referred_by ?? null;
    if (referrer !== null) {
      const share = roundCents(amount.times(economy.referralSharePercent).div(100), 'credit');
      if (share.gt(0))
        await creditReferrer(tx, { referrerId: referrer, friendId: c.userId, amount: share, total: 'total_money_ref', kind: 'ref-share', reference: `friend:${c.userId}:${c.kind}`, nowMs: c.nowMs });
    }
  }
  return toWire(amount);
};

/**
 * Credits dollars to a player (ledger row included), and settles their pending invite bonus when
 * this credit takes their totalEarn across $100 (invite-bonus.ts). Returns the amount credited.
 */
export const creditDollars = async (tx: Queryable, c: Credit): Promise<string> => {
  const amount = roundCents(c.amount, 'credit');
  if (amount.isNegative()) throw refuse('negativeCredit', { values: { amount: amount.toString() } });
  const after = await changeBalance(tx, 'DOLLAR', { ...c, amount });
  if (after !== null && crossesInviteThreshold(money(after).minus(amount), after)) await settleInviteBonus(tx, c.userId, c.nowMs);
  return toWire(amount);
};

/**
 * The one place the +3/+49 invite bonus is paid (docs/rules.md §9): it stays pending until the
 * friend's totalEarn reaches $100 AND the friend is a member of the channel (is_member, set by
 * the membership check in channel-rule.ts); then both sides get it (the referrer's share also
 * counts in totalRef). Called when either condition may have become true. The first call at $100
 * records clicked_at_ms and makes the membership check due at once. Idempotent.
 */
export const settleInviteBonus = async (tx: Queryable, friendId: number, nowMs: number): Promise<boolean> => {
  const r = await tx.query<{ referrer_id: number; bonus: string; status: string }>(
    `UPDATE referrals
        SET status = CASE WHEN is_member THEN 'credited' ELSE status END,
            credited_at_ms = CASE WHEN is_member THEN $2 ELSE credited_at_ms END,
            next_check_at_ms = CASE WHEN clicked_at_ms IS NULL THEN $2 ELSE next_check_at_ms END,
            clicked_at_ms = COALESCE(clicked_at_ms, $2)
     WHERE friend_id = $1 AND status = 'pending'
       AND (SELECT total_earn FROM users WHERE id = $1) >= $3
     RETURNING referrer_id, bonus, status`,
    [friendId, nowMs, economy.pendingFriendThresholdDollars],
  );
  const ref = r.rows[0];
  if (ref === undefined || ref.status !== 'credited') return false;
  await changeBalance(tx, 'MONEY', { userId: friendId, amount: ref.bonus, kind: 'invite-bonus', reference: `referrer:${ref.referrer_id}`, nowMs });
  await tx.query('UPDATE users SET ref_pending_cnt = ref_pending_cnt - 1 WHERE id = $1', [ref.referrer_id]);
  await creditReferrer(tx, { referrerId: ref.referrer_id, friendId, amount: ref.bonus, total: 'total_ref', kind: 'invite-bonus', reference: `friend:${friendId}`, nowMs });
  return true;
};

/**
 * Everything a referrer earns from a friend goes through here, in the transaction of its ledger
 * row: the balance and ledger row, the referrer's running total (totalRef for invite bonuses,
 * totalMoneyRef for 5% shares; "Total Bonus" on Invite is their sum), and what this friend has
 * earned them (`referrals.earned`, the friend row's "+X"). Nothing is summed when Invite is read.
 */
export const creditReferrer = async (
  tx: Queryable,
  c: { referrerId: number; friendId: number; amount: MoneyInput; total: 'total_ref' | 'total_money_ref'; kind: string; reference: string; nowMs: number },
): Promise<void> => {
  const amount = toWire(c.amount);
  await tx.query(`UPDATE users SET ${c.total} = ${c.total} + $2::numeric WHERE id = $1`, [c.referrerId, amount]);
  await tx.query('UPDATE referrals SET earned = earned + $2::numeric WHERE friend_id = $1', [c.friendId, amount]);
  await changeBalance(tx, 'MONEY', { userId: c.referrerId, amount, kind: c.kind, reference: c.reference, nowMs: c.nowMs });
};
