/**
 * Each day's finds, claims and reminders, for the console (docs/admin.md "Daily"): counted in the
 * transaction of each event, in one of 16 rows of the day chosen by the player's id, so players
 * claiming at midnight do not all wait on one row. The console sums a day's 16 rows.
 */
import type { Queryable } from '../core/db/db.ts';

export type DailyCount = 'streak_claims' | 'combo_finds' | 'combo_wins' | 'cipher_wins' | 'cipher_misses' | 'reminders_queued' | 'reminders_blocked';

const shards = 16;

/** Adds `by` to one count of `day`, in the caller's transaction. */
export const countDaily = async (tx: Queryable, day: number, userId: number, count: DailyCount, by = 1): Promise<void> => {
  await tx.query(
    `INSERT INTO daily_counts (day, shard, ${count}) VALUES ($1, $2, $3)
     ON CONFLICT (day, shard) DO UPDATE SET ${count} = daily_counts.${count} + EXCLUDED.${count}`,
    [day, userId % shards, by],
  );
};

/** Adds 1 to one count of `day` for each of `userIds`, in one statement (the reminders job's batch). */
export const countDailyMany = async (tx: Queryable, day: number, userIds: readonly number[], count: DailyCount): Promise<void> => {
  if (userIds.length === 0) return;
  await tx.query(
    `INSERT INTO daily_counts (day, shard, ${count})
     SELECT $1, (u % ${shards})::smallint, count(*) FROM unnest($2::bigint[]) AS u GROUP BY 2
     ON CONFLICT (day, shard) DO UPDATE SET ${count} = daily_counts.${count} + EXCLUDED.${count}`,
    [day, userIds],
  );
};
