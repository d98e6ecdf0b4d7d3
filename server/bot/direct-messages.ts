/**
 * Messages to chosen chats through the broadcast queue (docs/outside-services.md "Broadcasts"), for
 * features that pick their recipients over time (the daily reminders, docs/rules.md §15.4): a
 * broadcast is created once and recipients are appended to it, so the worker's shared pacing, its
 * 429 pauses and its resume-after-restart rules apply unchanged. Each chat is in a broadcast once.
 */
import type { Queryable } from '../core/db/db.ts';
import type { Broadcast } from './broadcast-payload.ts';

/** A new broadcast with no recipients yet; `segment` says what it is for (the console lists it apart). */
export const createDirectBroadcast = async (tx: Queryable, b: Broadcast, segment: Record<string, unknown>, nowMs: number): Promise<number> => {
  const r = await tx.query<{ id: number }>(
    'INSERT INTO broadcasts (message, buttons, total, created_at_ms, finished_at_ms, segment) VALUES ($1, $2::jsonb, 0, $3, $3, $4::jsonb) RETURNING id',
    [b.message, JSON.stringify(b.buttons), nowMs, JSON.stringify(segment)],
  );
  return Number(r.rows[0]!.id);
};

/** Appends recipients to a broadcast (a chat already in it is skipped); the worker picks them up. Returns how many were added. */
export const appendRecipients = async (tx: Queryable, broadcastId: number, chatIds: readonly number[]): Promise<number> => {
  if (chatIds.length === 0) return 0;
  const r = await tx.query('INSERT INTO broadcast_recipients (broadcast_id, chat_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING', [broadcastId, chatIds]);
  if (r.rowCount > 0) await tx.query('UPDATE broadcasts SET total = total + $2, finished_at_ms = NULL WHERE id = $1', [broadcastId, r.rowCount]);
  return r.rowCount;
};

/** What became of one message to one chat. */
export type DeliveryState = 'queued' | 'sent' | 'blocked' | 'failed' | 'uncertain' | 'cancelled';

/**
 * The state of each (broadcast, chat) pair, by primary key: 'blocked' when Telegram answered 403
 * (the player blocked the bot or deleted the account), 'queued' while it waits or is being sent.
 */
export const deliveryStates = async (q: Queryable, pairs: readonly { broadcastId: number; chatId: number }[]): Promise<Map<string, DeliveryState>> => {
  const out = new Map<string, DeliveryState>();
  if (pairs.length === 0) return out;
  const r = await q.query<{ broadcast_id: number; chat_id: number; status: string; error: string | null }>(
    `SELECT r.broadcast_id, r.chat_id, r.status, r.error FROM broadcast_recipients r
       JOIN unnest($1::bigint[], $2::bigint[]) AS p(b, c) ON r.broadcast_id = p.b AND r.chat_id = p.c`,
    [pairs.map((p) => p.broadcastId), pairs.map((p) => p.chatId)],
  );
  for (const row of r.rows) {
    const state: DeliveryState =
      row.status === 'pending' || row.status === 'sending'
        ? 'queued'
        : row.status === 'failed' && (row.error ?? '').startsWith('403')
          ? 'blocked'
          : (row.status as DeliveryState);
    out.set(`${Number(row.broadcast_id)}:${Number(row.chat_id)}`, state);
  }
  return out;
};
