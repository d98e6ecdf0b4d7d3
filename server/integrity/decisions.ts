/**
 * Operators decide, on the record (docs/airdrop.md "Integrity review"): clearing or excluding a
 * player, and deciding their appeal, are each one action that locks the player's review, writes
 * the decision, the status's copy on users and the audit row in one transaction. The console calls
 * them; an action that fails leaves no audit row and changes nothing.
 */
import type { AirdropFlagRow, AirdropReviewState } from '../../engine/wire/airdrop-review.ts';
import { isAirdropReasonCode } from '../../engine/wire/airdrop-review.ts';
import { auditAdminId, recordAudit, type Actor } from '../audit/exports.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse } from '../core/errors.ts';
import { flagOfPlayer } from './flags.ts';

/** The longest note an operator may write with a decision (what the audit row keeps). */
export const noteMaxLength = 500;

interface Locked {
  state: AirdropReviewState;
  score: number;
  reasons: string[];
  decision: 'cleared' | 'excluded' | null;
}

/** Locks the player's review (created when they have none yet); refuses a player who does not exist. */
const lockReview = async (tx: Queryable, userId: number): Promise<Locked> => {
  const user = await tx.query('SELECT 1 FROM users WHERE id = $1', [userId]);
  if (user.rows.length === 0) throw refuse('playerNotFound', { field: 'userId', values: { id: userId } });
  await tx.query('INSERT INTO integrity_players (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
  const r = await tx.query<Locked>('SELECT state, score, reasons, decision FROM integrity_players WHERE user_id = $1 FOR UPDATE', [userId]);
  return r.rows[0]!;
};

/** Writes the decided state on the review and the status's copy (after the review's lock: the job's order). */
const writeState = async (tx: Queryable, userId: number, state: AirdropReviewState, decision: 'cleared' | 'excluded', reasons: string[], nowMs: number, adminId: number) => {
  await tx.query(
    `UPDATE integrity_players SET state = $2, decision = $3, decided_reasons = CASE WHEN $3 = 'cleared' THEN reasons ELSE decided_reasons END,
       decided_by = $4, decided_at_ms = $5, flagged = true WHERE user_id = $1`,
    [userId, state, decision, adminId, nowMs],
  );
  await tx.query('UPDATE users SET airdrop_review = $2, airdrop_reasons = $3 WHERE id = $1', [
    userId,
    state === 'clear' ? null : state,
    state === 'clear' ? null : reasons.filter(isAirdropReasonCode),
  ]);
};

const cleanNote = (note: string | undefined): string => {
  const text = (note ?? '').trim();
  if (text.length > noteMaxLength) throw refuse('invalidParameter', { field: 'note', values: { rule: `must NOT have more than ${noteMaxLength} characters` } });
  return text;
};

const rowAfter = async (tx: Queryable, userId: number): Promise<AirdropFlagRow> => (await flagOfPlayer(tx, userId))!;

/**
 * Clears a player (they stay in the snapshot; a reason the operator did not see reopens the review)
 * or excludes them (left out of the snapshot). Any player may be decided, flagged or not.
 */
export const decideReview = async (db: Db, actor: Actor, userId: number, decision: 'clear' | 'exclude', note: string | undefined, nowMs: number): Promise<AirdropFlagRow> => {
  const text = cleanNote(note);
  return transaction(db, async (tx) => {
    const before = await lockReview(tx, userId);
    const state = decision === 'clear' ? 'clear' : 'excluded';
    const decided = decision === 'clear' ? 'cleared' : 'excluded';
    await writeState(tx, userId, state, decided, before.reasons, nowMs, auditAdminId(actor));
    await tx.query('UPDATE integrity_players SET decision_note = $2, appeal = NULL, appeal_at_ms = NULL, appeal_note = $3 WHERE user_id = $1', [userId, text, '']);
    await recordAudit(tx, { actor, action: `integrity.${decision}`, target: `user:${userId}`, before, after: { state, note: text }, nowMs });
    return rowAfter(tx, userId);
  });
};

/**
 * Decides a player's appeal (made through the bot or support, docs/airdrop.md): upheld keeps them
 * excluded (a player still under review is excluded by it), overturned clears them. Only a player
 * under review or excluded has something to appeal (else 409).
 */
export const decideAppeal = async (db: Db, actor: Actor, userId: number, outcome: 'upheld' | 'overturned', note: string | undefined, nowMs: number): Promise<AirdropFlagRow> => {
  const text = cleanNote(note);
  return transaction(db, async (tx) => {
    const before = await lockReview(tx, userId);
    if (before.state === 'clear') throw refuse('nothingToAppeal', { field: 'userId', values: { id: userId } });
    const state = outcome === 'overturned' ? 'clear' : 'excluded';
    await writeState(tx, userId, state, outcome === 'overturned' ? 'cleared' : 'excluded', before.reasons, nowMs, auditAdminId(actor));
    await tx.query('UPDATE integrity_players SET appeal = $2, appeal_at_ms = $3, appeal_note = $4 WHERE user_id = $1', [userId, outcome, nowMs, text]);
    await recordAudit(tx, { actor, action: 'integrity.appeal', target: `user:${userId}`, before, after: { state, outcome, note: text }, nowMs });
    return rowAfter(tx, userId);
  });
};
