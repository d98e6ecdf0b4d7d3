/**
 * Broadcasts from the console (docs/admin.md "Broadcasts"): queued into the same tables the
 * broadcast worker sends from (server/bot/broadcast-store.ts), so the shared pacing and the
 * resume-after-restart rules apply unchanged. Adds a segment, a cancel (pending recipients become
 * 'cancelled' and are never claimed), and progress with blocked players told apart from other failures.
 */
import type { AdminBroadcast, BroadcastButton, BroadcastCounts, BroadcastSegment } from '../../engine/wire/admin-types.ts';
import type { Broadcast, InlineButton } from '../bot/exports.ts';
import type { Db } from '../core/db/db.ts';
import { isTelegramUserIdText } from '../core/db/column-ranges.ts';
import { refuse } from '../core/errors.ts';
import { recordAudit, type Actor } from '../audit/exports.ts';
import { transaction } from '../core/db/transaction.ts';

export const maxTestRecipients = 50;
export const maxActiveDays = 365;

/** The fields each kind of segment takes besides `kind`; any other is refused. */
const segmentFields: Record<BroadcastSegment['kind'], readonly string[]> = { all: [], language: ['languageCode'], active: ['days'], test: ['userIds'] };

/** Checks a segment from the compose form (none is everyone), strictly typed; throws a 400 naming the field. */
export const parseSegment = (raw: unknown): BroadcastSegment => {
  if (raw === undefined) return { kind: 'all' };
  const s = (raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const kind = typeof s.kind === 'string' && Object.hasOwn(segmentFields, s.kind) ? (s.kind as BroadcastSegment['kind']) : undefined;
  const foreign = kind === undefined ? undefined : Object.keys(s).find((k) => k !== 'kind' && !segmentFields[kind].includes(k));
  if (kind !== undefined && foreign !== undefined) throw refuse('segmentFieldOfOtherKind', { field: `segment.${foreign}`, values: { kind } });
  switch (kind) {
    case 'all':
      return { kind: 'all' };
    case 'language': {
      const code = typeof s.languageCode === 'string' ? s.languageCode.trim().toLowerCase() : '';
      if (!/^[a-z]{2,3}(-[a-z0-9]{2,8})?$/.test(code)) throw refuse('segmentLanguageCode', { field: 'segment.languageCode' });
      return { kind: 'language', languageCode: code };
    }
    case 'active': {
      const days = s.days;
      // A number, never "30", true or [30].
      if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > maxActiveDays) throw refuse('segmentDays', { field: 'segment.days', values: { max: maxActiveDays } });
      return { kind: 'active', days };
    }
    case 'test': {
      // Strings of Telegram user ids (users.id), each within its range before it reaches a query.
      const list: unknown[] = Array.isArray(s.userIds) ? s.userIds : [];
      const ids = list.map((x) => (typeof x === 'string' ? x.trim() : ''));
      if (ids.length === 0 || ids.length > maxTestRecipients || !ids.every(isTelegramUserIdText))
        throw refuse('segmentUserIds', { field: 'segment.userIds', values: { max: maxTestRecipients } });
      return { kind: 'test', userIds: [...new Set(ids)] };
    }
    default:
      throw refuse('segmentKind', { field: 'segment.kind' });
  }
};

/** A player's language for the language segment, lower-cased (the index of migration 0850). */
const playerLanguage = 'lower(COALESCE(u.language, u.language_code))';

/** The WHERE clause and parameters (from $3) choosing a segment's recipients among users u. */
const segmentFilter = (s: BroadcastSegment, nowMs: number): { where: string; params: unknown[] } => {
  switch (s.kind) {
    case 'all':
      return { where: 'true', params: [] };
    case 'language':
      // The language the player chose in the mini-app, else Telegram's (docs/decisions/i18n.md). A
      // regional code (pt-br) is sent to players whose language is that one; 'pt' to pt and pt-*.
      return { where: `(${playerLanguage} = $3 OR ${playerLanguage} LIKE $3 || '-%')`, params: [s.languageCode] };
    case 'active':
      return { where: 'u.last_active_ms >= $3', params: [nowMs - s.days * 86_400_000] };
    case 'test':
      return { where: 'u.id = ANY($3::bigint[])', params: [s.userIds] };
  }
};

/** Queues a broadcast to a segment, with its audit row, in one transaction. */
export const enqueueSegmentBroadcast = (db: Db, actor: Actor, b: Broadcast, segment: BroadcastSegment, nowMs: number): Promise<{ broadcastId: number; total: number }> =>
  transaction(db, async (tx) => {
    const f = segmentFilter(segment, nowMs);
    const r = await tx.query<{ id: number; total: number }>(
      `WITH b AS (
         INSERT INTO broadcasts (message, buttons, total, created_at_ms, segment) VALUES ($1, $2::jsonb, 0, $${f.params.length + 3}, $${f.params.length + 4}::jsonb) RETURNING id
       ), r AS (
         INSERT INTO broadcast_recipients (broadcast_id, chat_id) SELECT b.id, u.id FROM b CROSS JOIN users u WHERE ${f.where} RETURNING 1
       ) SELECT (SELECT id FROM b)::int AS id, (SELECT count(*) FROM r)::int AS total`,
      [b.message, JSON.stringify(b.buttons), ...f.params, nowMs, JSON.stringify(segment)],
    );
    const { id, total } = r.rows[0]!;
    await tx.query('UPDATE broadcasts SET total = $2, finished_at_ms = CASE WHEN $2 = 0 THEN $3::bigint END WHERE id = $1', [id, total, nowMs]);
    await recordAudit(tx, { actor, action: 'broadcast.send', target: `broadcast:${id}`, after: { message: b.message, buttons: b.buttons, segment, total }, nowMs });
    return { broadcastId: Number(id), total: Number(total) };
  });

/** Cancels what is still pending, once (again is a 409 that writes nothing); a row being sent right now finishes its send. */
export const cancelBroadcast = (db: Db, actor: Actor, id: number, nowMs: number): Promise<number> =>
  transaction(db, async (tx) => {
    const b = await tx.query<{ finished_at_ms: number | null; cancelled_at_ms: number | null }>(
      'SELECT finished_at_ms, cancelled_at_ms FROM broadcasts WHERE id = $1 FOR UPDATE',
      [id],
    );
    if (b.rows[0] === undefined) throw refuse('broadcastNotFound', { field: 'id', values: { id } });
    // Cancelled while a send was in flight: not finished yet, but a second cancel has nothing to do.
    if (b.rows[0].cancelled_at_ms !== null) throw refuse('broadcastAlreadyCancelled', { field: 'id', values: { id } });
    if (b.rows[0].finished_at_ms !== null) throw refuse('broadcastFinished', { field: 'id', values: { id } });
    const r = await tx.query(`UPDATE broadcast_recipients SET status = 'cancelled', done_at_ms = $2 WHERE broadcast_id = $1 AND status = 'pending'`, [id, nowMs]);
    await tx.query(
      `UPDATE broadcasts SET cancelled_at_ms = $2,
              finished_at_ms = CASE WHEN NOT EXISTS (SELECT 1 FROM broadcast_recipients WHERE broadcast_id = $1 AND status = 'sending') THEN $2::bigint END
        WHERE id = $1`,
      [id, nowMs],
    );
    await recordAudit(tx, { actor, action: 'broadcast.cancel', target: `broadcast:${id}`, after: { cancelled: r.rowCount }, nowMs });
    return r.rowCount;
  });

interface Row extends BroadcastCounts {
  id: number;
  message: string;
  buttons: InlineButton[] | string;
  segment: BroadcastSegment | string | null;
  total: number;
  created_at_ms: number;
  finished_at_ms: number | null;
  cancelled_at_ms: number | null;
}

const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

const buttonOf = (b: InlineButton): BroadcastButton =>
  'url' in b ? { btnType: 'url', btnText: b.text, btnLink: b.url } : { btnType: 'web_app', btnText: b.text, btnLink: b.web_app.url };

const broadcastOf = (r: Row): AdminBroadcast => ({
  id: Number(r.id),
  message: r.message,
  btns: json(r.buttons).map(buttonOf),
  segment: r.segment === null ? { kind: 'all' } : json(r.segment),
  total: Number(r.total),
  sent: r.sent,
  failed: r.failed,
  blocked: r.blocked,
  uncertain: r.uncertain,
  cancelled: r.cancelled,
  pending: r.pending,
  createdAtMs: Number(r.created_at_ms),
  finishedAtMs: r.finished_at_ms === null ? null : Number(r.finished_at_ms),
  cancelledAtMs: r.cancelled_at_ms === null ? null : Number(r.cancelled_at_ms),
});

// Telegram answers 403 "Forbidden: bot was blocked by the user" (and "user is deactivated").
const counts = `count(*) FILTER (WHERE r.status = 'sent')::int AS sent,
  count(*) FILTER (WHERE r.status = 'failed' AND r.error NOT LIKE '403%')::int AS failed,
  count(*) FILTER (WHERE r.status = 'failed' AND r.error LIKE '403%')::int AS blocked,
  count(*) FILTER (WHERE r.status = 'uncertain')::int AS uncertain,
  count(*) FILTER (WHERE r.status = 'cancelled')::int AS cancelled,
  count(*) FILTER (WHERE r.status IN ('pending', 'sending'))::int AS pending`;

/**
 * One broadcast's progress: a count over that broadcast's recipients (its primary-key range), so
 * it grows with the broadcast's audience; the console polls it every 2 s while one is running.
 */
// A finished broadcast never changes again: its counts are read once per process.
const finishedByDb = new WeakMap<Db, Map<number, AdminBroadcast>>();

export const adminBroadcast = async (db: Db, id: number): Promise<AdminBroadcast> => {
  let finished = finishedByDb.get(db);
  if (finished === undefined) finishedByDb.set(db, (finished = new Map()));
  const known = finished.get(id);
  if (known !== undefined) return known;
  const r = await db.query<Row>(
    `SELECT b.*, ${counts} FROM broadcasts b LEFT JOIN broadcast_recipients r ON r.broadcast_id = b.id WHERE b.id = $1 GROUP BY b.id`,
    [id],
  );
  if (r.rows[0] === undefined) throw refuse('broadcastNotFound', { field: 'id', values: { id } });
  const b = broadcastOf(r.rows[0]);
  if (b.finishedAtMs !== null && b.pending === 0) finished.set(id, b);
  return b;
};

/** The latest broadcasts with their counts (finished ones from memory). */
export const recentBroadcasts = async (db: Db, limit = 20): Promise<AdminBroadcast[]> => {
  // The daily reminders ride the same queue in broadcasts of their own (docs/rules.md §15.4): the console shows them on its Daily page.
  const ids = await db.query<{ id: number }>("SELECT id FROM broadcasts WHERE segment IS NULL OR segment->>'kind' <> 'reminder' ORDER BY id DESC LIMIT $1", [limit]);
  return Promise.all(ids.rows.map((r) => adminBroadcast(db, Number(r.id))));
};
