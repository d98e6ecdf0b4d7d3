/**
 * The ids of frozen players, held in memory by each process and reread every `refreshMs`
 * (default 5 s) from a partial index, so refusing a frozen player's click costs no query.
 * Staleness (docs/admin.md "Freeze"): a freeze made on another process takes effect here within
 * one refresh; a freeze made on this process takes effect at once.
 */
import type { Db } from '../core/db/db.ts';

export interface FrozenSet {
  has(userId: number): boolean;
  /** Applies a freeze or unfreeze made by this process at once. */
  set(userId: number, frozen: boolean): void;
  refresh(): Promise<void>;
  stop(): void;
}

export const frozenRefreshMs = 5_000;

export const createFrozenSet = (db: Db, refreshMs = frozenRefreshMs): FrozenSet => {
  let ids = new Set<number>();
  let running: Promise<void> | undefined;
  const refresh = (): Promise<void> =>
    (running ??= db
      .query<{ id: number }>('SELECT id FROM users WHERE frozen_at IS NOT NULL')
      .then((r) => {
        ids = new Set(r.rows.map((x) => Number(x.id)));
      })
      // A database fault keeps the last known set; the next tick tries again.
      .catch(() => {})
      .finally(() => {
        running = undefined;
      }));
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();
  return {
    has: (id) => ids.has(id),
    set: (id, frozen) => {
      const next = new Set(ids);
      if (frozen) next.add(id);
      else next.delete(id);
      ids = next;
    },
    refresh,
    stop: () => clearInterval(timer),
  };
};
