/**
 * §9 "New users must click at least $100 and subscribe to the channel": the channel half of the
 * invite rule. A friend who reached $100 (referrals.clicked_at_ms, set by settleInviteBonus) is
 * checked with the Bot API's getChatMember by a job, never on the referrer's requests. Each run
 * leases a bounded batch of due referrals (so N processes never check one twice), asks Telegram
 * outside any transaction, and then either records the membership and releases the bonus through
 * settleInviteBonus, or makes the friend due again later. The friend's own actions make the check
 * due at once (pokeChannelCheck), so joining the channel and pressing Claim is enough.
 */
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { settleInviteBonus } from '../players/exports.ts';

/** Telegram's membership answer for one user, or a thrown error when it cannot be had. */
export type MembershipCheck = (telegramUserId: string) => Promise<boolean>;

export interface ChannelCheckResult {
  checked: number;
  released: number;
  failed: number;
}

/** Referrals checked per run: a run's work is bounded, whatever the number of players. */
export const channelCheckBatch = 50;

/** Makes the friend's membership check due now (the friend acted: a claim, a channel task…). */
export const pokeChannelCheck = async (q: Queryable, friendId: number, nowMs: number): Promise<void> => {
  await q.query(
    `UPDATE referrals SET next_check_at_ms = $2
     WHERE friend_id = $1 AND status = 'pending' AND clicked_at_ms IS NOT NULL AND next_check_at_ms > $2`,
    [friendId, nowMs],
  );
};

/** One run of the membership job: checks the due friends and releases their bonuses. */
export const runChannelChecks = async (db: Db, isMember: MembershipCheck, nowMs: number, recheckMs: number): Promise<ChannelCheckResult> => {
  // The lease: the due rows move to the next check time in one statement; another process skips them.
  const due = await db.query<{ friend_id: number }>(
    `UPDATE referrals SET next_check_at_ms = $2 + $3
     WHERE friend_id IN (
       SELECT friend_id FROM referrals
       WHERE status = 'pending' AND clicked_at_ms IS NOT NULL AND next_check_at_ms <= $2
       ORDER BY next_check_at_ms LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING friend_id`,
    [channelCheckBatch, nowMs, recheckMs],
  );
  const result: ChannelCheckResult = { checked: 0, released: 0, failed: 0 };
  for (const { friend_id: friendId } of due.rows) {
    let member: boolean;
    try {
      member = await isMember(String(friendId));
    } catch {
      // Telegram is down or slow: the friend stays due at the next check time.
      result.failed += 1;
      continue;
    }
    result.checked += 1;
    if (!member) continue;
    const released = await transaction(db, async (tx) => {
      await tx.query("UPDATE referrals SET is_member = true WHERE friend_id = $1 AND status = 'pending'", [friendId]);
      return settleInviteBonus(tx, friendId, nowMs);
    });
    if (released) result.released += 1;
  }
  return result;
};
