import type { Queryable } from '../core/db/db.ts';
import { insertLedgerSql } from '../players/exports.ts';
import type { UserRow } from '../players/exports.ts';

/**
 * A users row with its version: the system column `xmin` (as text), which every UPDATE of the row
 * by any route changes. A write conditioned on it ("compare-and-swap") applies only to the very
 * row version the click rule read (docs/storage.md, "Click groups").
 */
export type VersionedRow = UserRow & { version: string };

/** One click batch of a group, in arrival order. */
export interface Click {
  userId: number;
  click: number;
  batchId: string | null;
  /** The client's clock at the batch's first tap (firstTapMs), for the review's cadence; absent or null when not sent. */
  clientMs?: number | null;
}

/** A group's reads: each player's row and the batchIds of this group that player already has. */
export interface GroupRead {
  rows: Map<number, VersionedRow>;
  /** `${userId}:${batchId}` → the first answer's accepted taps. */
  seen: Map<string, number>;
}

/** What one group writes: the players' new rows, and its batches (batch ids and click ledger rows). */
export interface GroupWrite {
  /** Changed players: the new values, and `version` still the one the rule read. */
  changed: VersionedRow[];
  /**
   * The other players (every tap refused, or replays): their row is not updated, but the rule's
   * answer holds only for the version it read, so the write checks that version too.
   */
  checked: VersionedRow[];
  /**
   * Every batch of the write that stores something: its click_batches row (when it has a batchId)
   * and its ledger row of `earned` dollars (when it accepted taps).
   */
  batches: { userId: number; batchId: string | null; requested: number; accepted: number; earned: number; clientMs: number | null }[];
}

const readSql = (lock: boolean): string =>
  `SELECT u.*, u.xmin::text AS version,
          (SELECT json_object_agg(b.batch_id, b.accepted) FROM click_batches b
           WHERE b.user_id = u.id AND b.batch_id = ANY($2::text[])) AS seen
   FROM users u WHERE u.id = ANY($1::bigint[]) ORDER BY u.id${lock ? ' FOR UPDATE OF u' : ''}`;

/** Reads the group's players (locked in id order with `lock`) and which of its batchIds they already have. */
export const readGroup = async (q: Queryable, group: readonly Click[], lock: boolean): Promise<GroupRead> => {
  const ids = [...new Set(group.map((p) => p.userId))].sort((a, b) => a - b);
  const batchIds = [...new Set(group.flatMap((p) => (p.batchId === null ? [] : [p.batchId])))];
  const r = await q.query<VersionedRow & { seen: Record<string, number> | null }>(readSql(lock), [ids, batchIds]);
  const rows = new Map<number, VersionedRow>();
  const seen = new Map<string, number>();
  for (const { seen: prior, ...row } of r.rows) {
    rows.set(row.id, row);
    for (const [batchId, accepted] of Object.entries(prior ?? {})) seen.set(`${row.id}:${batchId}`, accepted);
  }
  return { rows, seen };
};

// The one write of a click group. Each changed player's row is updated only where the stored row is
// still the version the rule read, and each other player of the group is checked to still be at
// the version read; batch ids and ledger rows are inserted only for the players updated or checked.
// A batchId already stored fails the whole statement on click_batches' primary key, and nothing of
// it is written: the caller locks the rows, finds that batchId and answers it as a replay.
// (Probing click_batches for every updated player instead cost PostgreSQL ~4 µs a batch, for what
// is, on the hot path, a client's retry: docs/storage.md, "Click groups".)
// `u.id = ANY($1)` keeps the UPDATE on the primary key whatever the planner guesses of the arrays'
// lengths (a hash join over a seq scan of users cost ~0.5 ms a group at 10,000 players).
const writeSql = `WITH v AS (
    SELECT * FROM unnest($1::bigint[], $2::numeric[], $3::bigint[], $4::int[], $5::bigint[], $6::bigint[], $7::xid[])
      AS v(id, earn, clicks, energy, eat, tc, version)
  ), upd AS (
    UPDATE users u SET total_earn = v.earn, total_click = v.clicks, energy = v.energy, energy_at_ms = v.eat, tap_clock_ms = v.tc
    FROM v WHERE u.id = ANY($1::bigint[]) AND u.id = v.id AND u.xmin = v.version
    RETURNING u.id, u.xmin::text AS version
  ), kept AS (
    SELECT u.id, u.xmin::text AS version FROM unnest($14::bigint[], $15::xid[]) AS k(id, version)
    JOIN users u ON u.id = k.id AND u.xmin = k.version WHERE u.id = ANY($14::bigint[])
  ), b AS (
    SELECT * FROM unnest($9::bigint[], $10::text[], $11::int[], $12::int[], $13::numeric[], $16::bigint[]) AS b(u, id, req, acc, earned, cms)
    WHERE b.u IN (SELECT id FROM upd) OR b.u IN (SELECT id FROM kept)
  ), bat AS (
    INSERT INTO click_batches (user_id, batch_id, requested, accepted, created_at_ms, client_ms)
    SELECT b.u, b.id, b.req, b.acc, $8::bigint, b.cms FROM b WHERE b.id IS NOT NULL
  ), led AS (
    ${insertLedgerSql(`(SELECT b.u, 'DOLLAR', b.earned, 'click', b.id FROM b WHERE b.acc > 0) AS l(u, c, a, k, r)`, '$8')}
  ), st AS (
    -- The public stats' counters (server/leaderboard/stats-cache.ts): this write's taps and dollars,
    -- one row a statement (the ledger's trigger leaves 'click' rows to it).
    INSERT INTO stats_deltas (clicks, earn) SELECT sum(b.acc), sum(b.earned) FROM b WHERE b.acc > 0 HAVING count(*) > 0
  ) SELECT id, version FROM upd UNION ALL SELECT id, version FROM kept`;

// The write's arrays as PostgreSQL array literals, built here in one join each: pg's generic
// encoding escapes every element on its own, a cost paid per batch on the hot path.
/** Integers and decimal strings (ids, amounts, times, xids): nothing in them needs quoting. */
const numbers = (xs: readonly (number | string)[]): string => `{${xs.join(',')}}`;
/** Integers where null is NULL. */
const nullableNumbers = (xs: readonly (number | null)[]): string => `{${xs.map((x) => (x === null ? 'NULL' : x)).join(',')}}`;
/** Text elements, quoted and escaped; null is NULL. */
const texts = (xs: readonly (string | null)[]): string =>
  `{${xs.map((x) => (x === null ? 'NULL' : `"${x.replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;

/**
 * Runs the group's write: one statement, autocommitted on the database or in the caller's
 * transaction. Returns the version of each player it wrote (updated or checked); a player missing
 * there was not written (their row moved since the read), and none of their batch ids or ledger
 * rows was. Throws, having written nothing, when a batchId of the group is already stored.
 */
export const writeGroup = async (q: Queryable, w: GroupWrite, nowMs: number): Promise<Map<number, string>> => {
  const c = w.changed;
  const k = w.checked;
  if (c.length === 0 && k.length === 0) return new Map();
  const b = w.batches;
  const r = await q.query<{ id: number; version: string }>(
    writeSql,
    [
      numbers(c.map((r) => r.id)), numbers(c.map((r) => r.total_earn)), numbers(c.map((r) => r.total_click)), numbers(c.map((r) => r.energy)),
      numbers(c.map((r) => r.energy_at_ms)), numbers(c.map((r) => r.tap_clock_ms)), numbers(c.map((r) => r.version)),
      nowMs,
      numbers(b.map((x) => x.userId)), texts(b.map((x) => x.batchId)), numbers(b.map((x) => x.requested)), numbers(b.map((x) => x.accepted)),
      numbers(b.map((x) => x.earned)),
      numbers(k.map((r) => r.id)), numbers(k.map((r) => r.version)),
      nullableNumbers(b.map((x) => x.clientMs)),
    ],
    // Its result columns are fixed, so it is prepared once per connection (db.ts QueryOptions).
    { name: 'click-group-write' },
  );
  return new Map(r.rows.map((x) => [Number(x.id), x.version]));
};
