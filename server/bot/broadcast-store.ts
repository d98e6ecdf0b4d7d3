/**
 * The broadcast queue in the database: one row per recipient, claimed atomically by one worker,
 * marked with Telegram's answer in one UPDATE. The crash window (docs/outside-services.md): a row
 * is 'sending' from its claim until its answer is recorded; a row left 'sending' past the lease
 * becomes 'uncertain' and is never sent again, so no user gets a broadcast twice.
 */
import type { Db, Queryable } from '../core/db/db.ts';
import type { Broadcast, InlineButton } from './broadcast-payload.ts';

export interface ClaimedRecipient {
  broadcastId: number;
  chatId: number;
  attempts: number;
}

export type SendOutcome =
  | { kind: 'sent'; messageId: number }
  /** Telegram answered that it did not deliver (blocked, chat not found, bad request). */
  | { kind: 'failed'; error: string }
  /** Definitely not delivered (429, connection refused): try again from notBeforeMs. */
  | { kind: 'retry'; error: string; notBeforeMs: number }
  /** Maybe delivered (timeout, connection lost, 5xx): never re-sent. */
  | { kind: 'uncertain'; error: string };

export interface BroadcastProgress {
  id: number;
  total: number;
  sent: number;
  failed: number;
  uncertain: number;
  /** pending + sending. */
  remaining: number;
  createdAtMs: number;
  finishedAtMs: number | null;
}

/** After this many attempts that were certainly not delivered, a recipient is given up as failed. */
export const maxSendAttempts = 5;

/** Queues a broadcast to every user, in one statement (all recipients or none). */
export const enqueueBroadcast = async (db: Queryable, b: Broadcast, nowMs: number): Promise<{ broadcastId: number; total: number }> => {
  const r = await db.query<{ id: number; total: number }>(
    `WITH b AS (
       INSERT INTO broadcasts (message, buttons, total, created_at_ms)
       VALUES ($1, $2::jsonb, (SELECT count(*) FROM users), $3)
       RETURNING id, total
     ), r AS (
       INSERT INTO broadcast_recipients (broadcast_id, chat_id)
       SELECT b.id, u.id FROM b CROSS JOIN users u
       RETURNING 1
     )
     SELECT b.id::int AS id, (SELECT count(*) FROM r)::int AS total FROM b`,
    [b.message, JSON.stringify(b.buttons), nowMs],
  );
  const row = r.rows[0]!;
  return { broadcastId: Number(row.id), total: Number(row.total) };
};

/** Claims the next due recipient for this worker; SKIP LOCKED lets several workers share a queue. */
export const claimNext = async (db: Queryable, workerId: string, nowMs: number): Promise<ClaimedRecipient | null> => {
  const r = await db.query<{ broadcast_id: number; chat_id: number; attempts: number }>(
    `UPDATE broadcast_recipients r
        SET status = 'sending', claimed_by = $1, claimed_at_ms = $2, attempts = r.attempts + 1
       FROM (SELECT broadcast_id, chat_id FROM broadcast_recipients
              WHERE status = 'pending' AND not_before_ms <= $2
              ORDER BY broadcast_id, chat_id
              LIMIT 1 FOR UPDATE SKIP LOCKED) next
      WHERE r.broadcast_id = next.broadcast_id AND r.chat_id = next.chat_id
      RETURNING r.broadcast_id, r.chat_id, r.attempts`,
    [workerId, nowMs],
  );
  const row = r.rows[0];
  return row ? { broadcastId: Number(row.broadcast_id), chatId: Number(row.chat_id), attempts: row.attempts } : null;
};

/**
 * Records Telegram's answer for a claimed row, only if this worker still holds the claim
 * (a row recovered as 'uncertain' meanwhile stays so). Returns false when the claim was lost.
 */
export const recordOutcome = async (db: Db, row: ClaimedRecipient, workerId: string, outcome: SendOutcome, nowMs: number): Promise<boolean> => {
  const held = `broadcast_id = $1 AND chat_id = $2 AND status = 'sending' AND claimed_by = $3`;
  const base = [row.broadcastId, row.chatId, workerId];
  let r;
  if (outcome.kind === 'sent') {
    r = await db.query(`UPDATE broadcast_recipients SET status = 'sent', telegram_message_id = $4, done_at_ms = $5, error = NULL WHERE ${held}`, [...base, outcome.messageId, nowMs]);
  } else if (outcome.kind === 'retry' && row.attempts < maxSendAttempts) {
    r = await db.query(`UPDATE broadcast_recipients SET status = 'pending', claimed_by = NULL, not_before_ms = $4, error = $5 WHERE ${held}`, [...base, outcome.notBeforeMs, outcome.error]);
  } else {
    const status = outcome.kind === 'uncertain' ? 'uncertain' : 'failed';
    r = await db.query(`UPDATE broadcast_recipients SET status = $4, done_at_ms = $5, error = $6 WHERE ${held}`, [...base, status, nowMs, outcome.error]);
  }
  if (r.rowCount > 0) await markFinished(db, row.broadcastId, nowMs);
  return r.rowCount > 0;
};

const markFinished = (db: Queryable, broadcastId: number, nowMs: number) =>
  db.query(
    `UPDATE broadcasts SET finished_at_ms = $2
      WHERE id = $1 AND finished_at_ms IS NULL
        -- Two NOT EXISTS, so each can use its partial index (an IN list would scan the table).
        AND NOT EXISTS (SELECT 1 FROM broadcast_recipients WHERE broadcast_id = $1 AND status = 'pending')
        AND NOT EXISTS (SELECT 1 FROM broadcast_recipients WHERE broadcast_id = $1 AND status = 'sending')`,
    [broadcastId, nowMs],
  );

/** Gives a claim back untried (a 429 pause began between the claim and the send). */
export const releaseClaim = async (db: Queryable, row: ClaimedRecipient, workerId: string): Promise<void> => {
  await db.query(
    `UPDATE broadcast_recipients SET status = 'pending', claimed_by = NULL, attempts = attempts - 1
      WHERE broadcast_id = $1 AND chat_id = $2 AND status = 'sending' AND claimed_by = $3`,
    [row.broadcastId, row.chatId, workerId],
  );
};

/**
 * A row 'sending' for longer than the lease belongs to a worker that died mid-send: Telegram may
 * have delivered it, so it becomes 'uncertain' (never re-sent). Returns how many rows.
 */
export const recoverAbandoned = async (db: Queryable, leaseMs: number, nowMs: number): Promise<number> => {
  const r = await db.query<{ broadcast_id: number }>(
    `UPDATE broadcast_recipients SET status = 'uncertain', done_at_ms = $1, error = 'worker stopped before recording the answer'
      WHERE status = 'sending' AND claimed_at_ms <= $2
      RETURNING broadcast_id`,
    [nowMs, nowMs - leaseMs],
  );
  for (const id of new Set(r.rows.map((x) => Number(x.broadcast_id)))) await markFinished(db, id, nowMs);
  return r.rowCount;
};

/** Recipients pending or being sent, over every broadcast; each count reads its partial index. */
export const queueDepth = async (db: Queryable): Promise<number> => {
  const r = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM broadcast_recipients WHERE status = 'pending')
          + (SELECT count(*) FROM broadcast_recipients WHERE status = 'sending') AS n`,
  );
  return Number(r.rows[0]?.n ?? 0);
};

export const loadBroadcast = async (db: Queryable, id: number): Promise<Broadcast | null> => {
  const r = await db.query<{ message: string; buttons: InlineButton[] | string }>('SELECT message, buttons FROM broadcasts WHERE id = $1', [id]);
  const row = r.rows[0];
  if (!row) return null;
  return { message: row.message, buttons: typeof row.buttons === 'string' ? (JSON.parse(row.buttons) as InlineButton[]) : row.buttons };
};

export const broadcastProgress = async (db: Queryable, id: number): Promise<BroadcastProgress | null> => {
  const r = await db.query<{ total: number; created_at_ms: number; finished_at_ms: number | null; sent: number; failed: number; uncertain: number; remaining: number }>(
    `SELECT b.total, b.created_at_ms, b.finished_at_ms,
            count(*) FILTER (WHERE r.status = 'sent')::int AS sent,
            count(*) FILTER (WHERE r.status = 'failed')::int AS failed,
            count(*) FILTER (WHERE r.status = 'uncertain')::int AS uncertain,
            count(*) FILTER (WHERE r.status IN ('pending', 'sending'))::int AS remaining
       FROM broadcasts b LEFT JOIN broadcast_recipients r ON r.broadcast_id = b.id
      WHERE b.id = $1
      GROUP BY b.id`,
    [id],
  );
  const row = r.rows[0];
  if (!row) return null;
  return {
    id,
    total: Number(row.total),
    sent: row.sent,
    failed: row.failed,
    uncertain: row.uncertain,
    remaining: row.remaining,
    createdAtMs: Number(row.created_at_ms),
    finishedAtMs: row.finished_at_ms === null ? null : Number(row.finished_at_ms),
  };
};
