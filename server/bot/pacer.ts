/**
 * Spaces out sends so that all processes together never exceed `ratePerSecond` (Telegram allows
 * about 30 messages a second per bot), and pauses everyone when Telegram answers 429 with
 * retry_after. The budget lives in PostgreSQL (send_pace), in the database's clock, so N processes
 * share it (docs/faults.md "Broadcasts"). Two steps per send: `slot()` reserves a turn, which
 * spreads the lanes out (each sleeps until its own), and `take()`, right before the request, lets it
 * go only if fewer than `rate` sends went out in the last window — so a lane that overslept or
 * waited on the database does not bunch up with punctual ones. Sleeping and the clock are injected.
 */
import type { Queryable } from '../core/db/db.ts';

export interface Pacer {
  /** Resolves at the caller's turn: it may claim a message to send. */
  slot(): Promise<void>;
  /**
   * Right before the send: counts it, waiting a little if the window is full. False when that
   * would take longer than `maxWaitMs` (a 429 pause) or the worker stops: the caller gives the
   * message back instead of holding it.
   */
  take(maxWaitMs?: number): Promise<boolean>;
  /** Telegram said "retry after": nobody, in any process, sends before `untilMs` (the local clock). */
  pauseUntil(untilMs: number): void;
  /** True while a 429 pause lasts: checked again right before sending. */
  isPaused(): boolean;
}

export interface PacerDeps {
  db: Queryable;
  /** Several budgets may share the table; one per bot token. */
  name: string;
  ratePerSecond: number;
  /** The local clock (ms) that pauseUntil's argument is in. */
  now(): number;
  sleep(ms: number): Promise<void>;
  /** When this turns true, a waiting slot() returns at once (the worker is stopping). */
  cancelled?: () => boolean;
  log?: (message: string) => void;
}

/**
 * Slots are spaced this much wider than 1/rate: a send leaves a little after its slot (the event
 * loop, the network), and a late one followed by punctual ones must still not put rate + 1 sends
 * into one second.
 */
export const paceHeadroom = 1.2;

/**
 * The window is also this much longer: a send counted in time can still reach Telegram late (a
 * busy event loop, the network), and a late one must not share Telegram's second with punctual
 * ones. Measured: with no slack, three processes on a loaded 2-core machine put 32 arrivals into
 * one second at the receiver.
 */
export const paceWindowSlackMs = 300;

// One statement: the slot is max(next free, pause end, now) in the database's clock; the row moves
// one interval on. Returns how long to wait for it and how long the shared pause still lasts.
const takeSlotSql = `
  WITH t AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS now_ms)
  INSERT INTO send_pace AS p (name, next_slot_ms) SELECT $1, t.now_ms + $2 FROM t
  ON CONFLICT (name) DO UPDATE
    SET next_slot_ms = GREATEST(p.next_slot_ms, p.paused_until_ms, (SELECT now_ms FROM t)) + $2
  RETURNING p.next_slot_ms - $2 - (SELECT now_ms FROM t) AS wait_ms, p.paused_until_ms - (SELECT now_ms FROM t) AS paused_ms`;

// The send itself: allowed when the window holds fewer than $2 sends and no pause lasts; then
// `now` joins the last $2 send times. Otherwise: how long until the oldest leaves the window.
const sendSql = `
  WITH t AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS now_ms),
  sent AS (
    UPDATE send_pace p SET recent_ms = (p.recent_ms || t.now_ms::float8)[greatest(1, cardinality(p.recent_ms) + 2 - $2::int):]
      FROM t
     WHERE p.name = $1 AND t.now_ms >= p.paused_until_ms
       AND (cardinality(p.recent_ms) < $2::int OR t.now_ms - p.recent_ms[1] >= $3)
    RETURNING 1)
  SELECT (SELECT count(*) FROM sent)::int AS sent,
         GREATEST(COALESCE(p.recent_ms[1] + $3 - t.now_ms, 0), p.paused_until_ms - t.now_ms, 1) AS wait_ms
    FROM send_pace p, t WHERE p.name = $1`;

const pauseSql = `
  UPDATE send_pace SET paused_until_ms = GREATEST(paused_until_ms, extract(epoch FROM clock_timestamp()) * 1000 + $2)
   WHERE name = $1`;

export const createPacer = ({ db, name, ratePerSecond, now, sleep, cancelled = () => false, log = () => {} }: PacerDeps): Pacer => {
  const intervalMs = (1000 / ratePerSecond) * paceHeadroom;
  // At most `capacity` sends in any `windowMs` (30 per 1.5 s at 30/s; 1 per 2.7 s at 0.5/s). Past
  // 100/s the window shrinks instead (100 per 0.11 s at 1,000/s): the row keeps at most 100 times.
  const capacity = Math.min(100, Math.max(1, Math.floor(ratePerSecond)));
  const windowMs = capacity * intervalMs + paceWindowSlackMs;
  // The pause as this process knows it (its own 429s, and the shared one seen at the last slot).
  let pausedUntil = 0;
  return {
    slot: async () => {
      for (;;) {
        if (cancelled()) return;
        try {
          const row = (await db.query<{ wait_ms: number; paused_ms: number }>(takeSlotSql, [name, intervalMs])).rows[0];
          pausedUntil = Math.max(pausedUntil, now() + Number(row?.paused_ms ?? 0));
          const waitMs = Number(row?.wait_ms ?? 0);
          if (waitMs > 0) await sleep(waitMs);
          return;
        } catch (err) {
          // No shared budget without the database: wait, never send unpaced.
          log(`pacer: no slot: ${String(err)}`);
          await sleep(1_000);
        }
      }
    },
    take: async (maxWaitMs = windowMs) => {
      for (;;) {
        if (cancelled()) return false;
        let row: { sent: number; wait_ms: number } | undefined;
        try {
          row = (await db.query<{ sent: number; wait_ms: number }>(sendSql, [name, capacity, windowMs])).rows[0];
        } catch (err) {
          log(`pacer: no slot: ${String(err)}`);
          return false;
        }
        if (row !== undefined && row.sent > 0) return true;
        const waitMs = Number(row?.wait_ms ?? 1);
        if (waitMs > maxWaitMs) return false;
        await sleep(waitMs);
      }
    },
    pauseUntil: (untilMs) => {
      pausedUntil = Math.max(pausedUntil, untilMs);
      db.query(pauseSql, [name, untilMs - now()]).catch((err: unknown) => log(`pacer: could not share a pause: ${String(err)}`));
    },
    isPaused: () => now() < pausedUntil,
  };
};
