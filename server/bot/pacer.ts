/**
 * Spaces out sends so that all processes together never exceed `ratePerSecond` (Telegram allows
 * about 30 messages a second per bot), and pauses everyone when Telegram answers 429 with
 * retry_after. The budget lives in PostgreSQL (send_pace): each slot is one UPDATE that takes the
 * next free time in the database's clock, so N processes share it (docs/scaling.md "Broadcasts").
 * Sleeping and the local clock are injected so tests can drive them.
 */
import type { Queryable } from '../db/db.ts';

export interface Pacer {
  /** Resolves when the caller may send one message. */
  slot(): Promise<void>;
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
export const paceHeadroom = 1.1;

// One statement: the slot is max(next free, pause end, now) in the database's clock; the row moves
// one interval on. Returns how long to wait for it and how long the shared pause still lasts.
const takeSlotSql = `
  WITH t AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS now_ms)
  INSERT INTO send_pace AS p (name, next_slot_ms) SELECT $1, t.now_ms + $2 FROM t
  ON CONFLICT (name) DO UPDATE
    SET next_slot_ms = GREATEST(p.next_slot_ms, p.paused_until_ms, (SELECT now_ms FROM t)) + $2
  RETURNING p.next_slot_ms - $2 - (SELECT now_ms FROM t) AS wait_ms, p.paused_until_ms - (SELECT now_ms FROM t) AS paused_ms`;

const pauseSql = `
  UPDATE send_pace SET paused_until_ms = GREATEST(paused_until_ms, extract(epoch FROM clock_timestamp()) * 1000 + $2)
   WHERE name = $1`;

export const createPacer = ({ db, name, ratePerSecond, now, sleep, cancelled = () => false, log = () => {} }: PacerDeps): Pacer => {
  const intervalMs = (1000 / ratePerSecond) * paceHeadroom;
  // The pause as this process knows it (its own 429s, and the shared one seen at the last slot).
  let pausedUntil = 0;
  return {
    slot: async () => {
      for (;;) {
        if (cancelled()) return;
        let row: { wait_ms: number; paused_ms: number } | undefined;
        try {
          row = (await db.query<{ wait_ms: number; paused_ms: number }>(takeSlotSql, [name, intervalMs])).rows[0];
        } catch (err) {
          // No shared budget without the database: wait, never send unpaced.
          log(`pacer: no slot: ${String(err)}`);
          await sleep(1_000);
          continue;
        }
        const waitMs = Number(row?.wait_ms ?? 0);
        pausedUntil = Math.max(pausedUntil, now() + Number(row?.paused_ms ?? 0));
        if (waitMs > 0) await sleep(waitMs);
        return;
      }
    },
    pauseUntil: (untilMs) => {
      pausedUntil = Math.max(pausedUntil, untilMs);
      db.query(pauseSql, [name, untilMs - now()]).catch((err: unknown) => log(`pacer: could not share a pause: ${String(err)}`));
    },
    isPaused: () => now() < pausedUntil,
  };
};
