/**
 * The 10,000 players the click benches share (bench:server, bench:click-write): their ids, the
 * bot token their init data is signed with, and their rows.
 */
import { economy } from '../engine/rules/economy.ts';
import type { Queryable } from '../server/core/db/db.ts';

export const players = 10_000;
export const firstId = 6_000_000_000;
export const botToken = '7000000009:AAbenchTOKENbenchTOKENbench_xyz';

/** The i-th refcode of the alphabet (6 base-62 digits). */
export const refcodeOf = (i: number): string => {
  let s = '';
  for (let k = 0; k < economy.refcodeLength; k++) {
    s = economy.refcodeAlphabet[i % 62] + s;
    i = Math.floor(i / 62);
  }
  return s;
};

/** Creates the players in one statement, full energy at nowMs (a first /click then only refreshes the profile). */
export const seedPlayers = async (db: Queryable, nowMs: number): Promise<void> => {
  const ids = Array.from({ length: players }, (_, i) => firstId + i);
  await db.query(
    `INSERT INTO users (id, refcode, tele_username, tele_name, tele_age, energy, energy_at_ms, tap_clock_ms, last_claimed_ms, created_at_ms)
     SELECT id, code, 'bench' || id, 'Bench', 100, 500, $3, $3, $3, $3 FROM unnest($1::bigint[], $2::text[]) AS t(id, code)
     ON CONFLICT (id) DO NOTHING`,
    [ids, ids.map((_, i) => refcodeOf(i + 1_000_000)), nowMs],
  );
};

/** Taps stored in totalClick over every player. */
export const totalClicks = async (db: Queryable): Promise<number> =>
  Number((await db.query<{ n: string }>('SELECT COALESCE(sum(total_click), 0)::text AS n FROM users')).rows[0]!.n);
