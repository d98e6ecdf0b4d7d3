/**
 * The group signals (docs/airdrop.md "Integrity review", "Groups"): what the job sees of accounts
 * that came or play together, kept up to date from what happened since its last run only:
 * - the referral tree: each new referral adds its friend under the referrer and under each of the
 *   referrer's ancestors, down to treeDepth levels (integrity_tree), and each ancestor's counts of
 *   accounts and of young ones (integrity_players.tree_size, tree_young);
 * - subtree bursts: around each new join, the joins into the same ancestor's subtree within the
 *   burst window (a range read on integrity_tree_joined_idx), kept per member as its largest;
 * - twin sessions: each ended session of twinMinBatches batches or more is stored with its group (the
 *   top ancestor within treeDepth, else the player) and compared with its siblings' within the twin
 *   window (an index read by group and shape); a pair of siblings counts its twins at one offset.
 * The invitees that stop past $100 are counted with the referrer's other facts (signals-job.ts).
 */
import type { Queryable } from '../core/db/db.ts';
import type { ClosedSession } from './cadence.ts';
import type { IntegrityRules } from './rules.ts';

/** group_flags bits: what a referrer's or ancestor's invitees read. */
export const groupFlag = { paidStop: 2, youngTree: 4 } as const;

/**
 * Adds the referrals made in [fromMs, toMs) to the tree, updates the ancestors' counts and the
 * members' bursts. Answers who changed: every ancestor touched and every member in a burst.
 */
export const extendTree = async (q: Queryable, fromMs: number, toMs: number, r: IntegrityRules): Promise<number[]> => {
  // Depth 1 first, then each level from the one before: a referrer who joined in this same range
  // has their own ancestry written by the pass before.
  const inserted = await q.query<{ ancestor_id: number; young: boolean }>(
    `INSERT INTO integrity_tree (ancestor_id, friend_id, depth, joined_ms, young)
     SELECT r.referrer_id, r.friend_id, 1, r.created_at_ms, COALESCE(u.tele_age, 0) < $3
       FROM referrals r LEFT JOIN users u ON u.id = r.friend_id
      WHERE r.created_at_ms >= $1 AND r.created_at_ms < $2
     ON CONFLICT DO NOTHING RETURNING ancestor_id, young`,
    [fromMs, toMs, r.youngDays],
  );
  const added = [...inserted.rows];
  for (let depth = 1; depth < r.treeDepth; depth++) {
    const next = await q.query<{ ancestor_id: number; young: boolean }>(
      `INSERT INTO integrity_tree (ancestor_id, friend_id, depth, joined_ms, young)
       SELECT t.ancestor_id, f.friend_id, $3 + 1, f.joined_ms, f.young
         FROM integrity_tree f JOIN integrity_tree t ON t.friend_id = f.ancestor_id AND t.depth = $3
        WHERE f.depth = 1 AND f.joined_ms >= $1 AND f.joined_ms < $2 AND t.ancestor_id <> f.friend_id
       ON CONFLICT DO NOTHING RETURNING ancestor_id, young`,
      [fromMs, toMs, depth],
    );
    if (next.rows.length === 0) break;
    added.push(...next.rows);
  }
  if (added.length === 0) return [];
  const counts = new Map<number, { n: number; young: number }>();
  for (const a of added) {
    const c = counts.get(Number(a.ancestor_id)) ?? { n: 0, young: 0 };
    c.n++;
    if (a.young) c.young++;
    counts.set(Number(a.ancestor_id), c);
  }
  const ancestors = [...counts.keys()];
  await q.query('INSERT INTO integrity_players (user_id) SELECT unnest($1::bigint[]) ON CONFLICT (user_id) DO NOTHING', [ancestors]);
  await q.query(
    `UPDATE integrity_players p SET tree_size = p.tree_size + x.n, tree_young = p.tree_young + x.y
       FROM unnest($1::bigint[], $2::int[], $3::int[]) AS x(id, n, y) WHERE p.user_id = x.id`,
    [ancestors, ancestors.map((id) => counts.get(id)!.n), ancestors.map((id) => counts.get(id)!.young)],
  );
  // Bursts: each join since a half window before the range, counted with the joins within half a
  // window either side of it (a join before that saw every join it could have in an earlier run).
  const half = Math.floor(r.treeBurstMs / 2);
  const bursts = await q.query<{ friend_id: number; ancestor_id: number; n: number }>(
    `SELECT DISTINCT ON (friend_id) friend_id, ancestor_id, n FROM (
       SELECT friend_id, ancestor_id, joined_ms,
              count(*) OVER (PARTITION BY ancestor_id ORDER BY joined_ms RANGE BETWEEN $4::bigint PRECEDING AND $4::bigint FOLLOWING)::int AS n
         FROM integrity_tree WHERE ancestor_id = ANY($1::bigint[]) AND joined_ms >= $2 - 2 * $4::bigint AND joined_ms < $3) w
      WHERE joined_ms >= $2 - $4::bigint AND n >= $5
      ORDER BY friend_id, n DESC`,
    [ancestors, fromMs, toMs, half, r.treeBurstJoins],
  );
  const members = bursts.rows.map((b) => Number(b.friend_id));
  if (members.length > 0) {
    await q.query('INSERT INTO integrity_players (user_id) SELECT unnest($1::bigint[]) ON CONFLICT (user_id) DO NOTHING', [members]);
    await q.query(
      `UPDATE integrity_players p SET tree_burst = x.n, tree_burst_ancestor = x.a
         FROM unnest($1::bigint[], $2::int[], $3::bigint[]) AS x(id, n, a) WHERE p.user_id = x.id AND x.n > p.tree_burst`,
      [members, bursts.rows.map((b) => b.n), bursts.rows.map((b) => Number(b.ancestor_id))],
    );
  }
  return [...ancestors, ...members];
};

/**
 * Stores the sessions that ended (those of twinMinBatches batches or more) and counts their twins
 * among siblings; answers the players whose twin count changed. Sessions older than two twin
 * windows are dropped first (a range delete on their start).
 */
export const recordSessions = async (q: Queryable, ended: { userId: number; session: ClosedSession }[], nowMs: number, r: IntegrityRules): Promise<number[]> => {
  await q.query('DELETE FROM integrity_sessions WHERE start_ms < $1', [nowMs - 2 * r.twinWindowMs]);
  const kept = ended.filter((e) => e.session.batches >= r.twinMinBatches);
  if (kept.length === 0) return [];
  const users = [...new Set(kept.map((e) => e.userId))];
  const top = new Map(
    (
      await q.query<{ id: number; ancestor_id: number }>(
        'SELECT DISTINCT ON (friend_id) friend_id AS id, ancestor_id FROM integrity_tree WHERE friend_id = ANY($1::bigint[]) ORDER BY friend_id, depth DESC',
        [users],
      )
    ).rows.map((t) => [Number(t.id), Number(t.ancestor_id)]),
  );
  const groupOf = (id: number) => top.get(id) ?? id;
  await q.query(
    `INSERT INTO integrity_sessions (user_id, group_id, start_ms, duration_ms, batches, taps)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::int[], $6::int[]) ON CONFLICT DO NOTHING`,
    [kept.map((e) => e.userId), kept.map((e) => groupOf(e.userId)), kept.map((e) => e.session.startMs), kept.map((e) => e.session.durationMs), kept.map((e) => e.session.batches), kept.map((e) => e.session.taps)],
  );
  // Each new session against its group's sessions of the same shape, within the twin window.
  const matches = await q.query<{ u: number; s: number; u_start: number; s_start: number }>(
    `SELECT n.user_id AS u, s.user_id AS s, n.start_ms AS u_start, s.start_ms AS s_start
       FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::int[], $6::int[]) AS n(user_id, group_id, start_ms, duration_ms, batches, taps)
       JOIN integrity_sessions s ON s.group_id = n.group_id AND s.batches = n.batches AND s.taps = n.taps
        AND s.start_ms BETWEEN n.start_ms - $7::bigint AND n.start_ms + $7::bigint
        AND s.user_id <> n.user_id AND abs(s.duration_ms - n.duration_ms) <= $8`,
    [kept.map((e) => e.userId), kept.map((e) => groupOf(e.userId)), kept.map((e) => e.session.startMs), kept.map((e) => e.session.durationMs), kept.map((e) => e.session.batches), kept.map((e) => e.session.taps), r.twinWindowMs, r.twinDurationMs],
  );
  if (matches.rows.length === 0) return [];
  // One count per pair of sessions (two new sessions find each other twice) and per new session and sibling.
  const seen = new Set<string>();
  const offsets = new Map<string, number[]>();
  for (const m of matches.rows) {
    const [u, s, us, ss] = [Number(m.u), Number(m.s), Number(m.u_start), Number(m.s_start)];
    const [a, b, aStart, bStart] = u < s ? [u, s, us, ss] : [s, u, ss, us];
    const pairOfSessions = `${a}:${aStart}:${b}:${bStart}`;
    if (seen.has(pairOfSessions)) continue;
    seen.add(pairOfSessions);
    const key = `${a}:${b}:${u === a ? aStart : bStart}`;
    offsets.set(key, [...(offsets.get(key) ?? []), aStart - bStart]);
  }
  const pairs = [...new Set([...offsets.keys()].map((k) => k.split(':').slice(0, 2).join(':')))].map((k) => k.split(':').map(Number) as [number, number]);
  const stored = new Map(
    (
      await q.query<{ a: number; b: number; offset_ms: number; matches: number }>(
        'SELECT a, b, offset_ms, matches FROM integrity_twins WHERE (a, b) IN (SELECT * FROM unnest($1::bigint[], $2::bigint[]))',
        [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
      )
    ).rows.map((t) => [`${Number(t.a)}:${Number(t.b)}`, { offset: Number(t.offset_ms), matches: t.matches }]),
  );
  // Per new session and sibling: a twin at the pair's offset counts once more; else, while the pair
  // has at most one twin, the nearest offset becomes the pair's.
  const counted = new Set<string>();
  for (const [key, found] of offsets) {
    const pair = key.split(':').slice(0, 2).join(':');
    const t = stored.get(pair);
    if (t !== undefined && found.some((o) => Math.abs(o - t.offset) <= r.twinOffsetMs)) {
      t.matches++;
      counted.add(pair);
    }
  }
  for (const [key, found] of [...offsets.entries()].sort()) {
    const pair = key.split(':').slice(0, 2).join(':');
    const t = stored.get(pair);
    if (counted.has(pair) || (t !== undefined && t.matches > 1)) continue;
    const nearest = found.reduce((x, y) => (Math.abs(y) < Math.abs(x) ? y : x));
    if (t === undefined || Math.abs(nearest) < Math.abs(t.offset)) stored.set(pair, { offset: nearest, matches: 1 });
  }
  const touched = [...stored.keys()].filter((k) => pairs.some((p) => `${p[0]}:${p[1]}` === k));
  await q.query(
    `INSERT INTO integrity_twins (a, b, offset_ms, matches) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::int[])
     ON CONFLICT (a, b) DO UPDATE SET offset_ms = excluded.offset_ms, matches = excluded.matches`,
    [touched.map((k) => Number(k.split(':')[0])), touched.map((k) => Number(k.split(':')[1])), touched.map((k) => stored.get(k)!.offset), touched.map((k) => stored.get(k)!.matches)],
  );
  // Each player's best pair, kept on their row.
  const players = [...new Set(touched.flatMap((k) => k.split(':').map(Number)))];
  await q.query('INSERT INTO integrity_players (user_id) SELECT unnest($1::bigint[]) ON CONFLICT (user_id) DO NOTHING', [players]);
  await q.query(
    `UPDATE integrity_players p SET twin_best = x.matches, twin_sibling = x.sibling FROM (
       SELECT DISTINCT ON (me) me, sibling, matches FROM (
         SELECT a AS me, b AS sibling, matches FROM integrity_twins WHERE a = ANY($1::bigint[])
         UNION ALL SELECT b, a, matches FROM integrity_twins WHERE b = ANY($1::bigint[])) t
       ORDER BY me, matches DESC, sibling) x
     WHERE p.user_id = x.me`,
    [players],
  );
  return players;
};

/** The ancestors of each player whose subtree is young (flag set now or stored), with its counts. */
export const youngAncestorsOf = async (
  q: Queryable,
  players: number[],
  flagsNow: ReadonlyMap<number, number>,
): Promise<Map<number, { ancestorId: number; size: number; young: number }>> => {
  const out = new Map<number, { ancestorId: number; size: number; young: number }>();
  if (players.length === 0) return out;
  const r = await q.query<{ id: number; ancestor_id: number; tree_size: number; tree_young: number; group_flags: number }>(
    `SELECT t.friend_id AS id, t.ancestor_id, a.tree_size, a.tree_young, a.group_flags
       FROM integrity_tree t JOIN integrity_players a ON a.user_id = t.ancestor_id WHERE t.friend_id = ANY($1::bigint[]) AND t.young ORDER BY t.depth`,
    [players],
  );
  for (const row of r.rows) {
    const id = Number(row.id);
    const ancestor = Number(row.ancestor_id);
    const flags = flagsNow.get(ancestor) ?? row.group_flags;
    if (!out.has(id) && (flags & groupFlag.youngTree) !== 0) out.set(id, { ancestorId: ancestor, size: row.tree_size, young: row.tree_young });
  }
  return out;
};
