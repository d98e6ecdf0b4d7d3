/**
 * The ranked view (docs/scaling.md "Leaderboard", docs/storage.md "Maintained ranks and counters"):
 * every player's ranked MONEY balance in `rank_entries`, cut into consecutive key ranges
 * (`rank_blocks`) that each know how many entries they hold (`n`) and how many lie above them
 * (`above`). A rank is `above` plus a count inside one block; a page is an OFFSET inside one block.
 *
 * The view is maintained, not rebuilt: a balance change leaves a mark in `rank_dirty` (a trigger on
 * users, in the changing transaction), and the ranks job applies the marks in one transaction —
 * the entries that moved, the counts of the blocks they left and joined, the blocks' `above`, a
 * split of any block grown past twice the block size and a merge of any shrunk below a quarter —
 * so its work grows with the players whose balance changed, and a reader, whose one statement
 * sees one committed state, always gets a page, an own rank and a total of one version.
 * `rebuildRanks` builds the view from scratch into new tables and swaps them in (migration 1100's
 * `rank_build` and `rank_swap`).
 */
import type { Db, Queryable } from '../core/db/db.ts';
import { isLockTimeout } from '../core/db/retry.ts';
import { transaction } from '../core/db/transaction.ts';

/**
 * One process applies at a time: a transaction-scoped advisory lock (the others skip the tick).
 * Advisory locks are per database, so the key includes the schema (tests share a database).
 */
export const rankLockSql = "hashtext(current_schema() || ':rank-view')";
/** Marks taken by one apply transaction; a tick applies up to `maxApplies` of them while marks remain. */
export const marksPerApply = 20_000;
const maxApplies = 10;

export interface RankApply {
  /** Marks taken (several changes of one player are several marks). */
  marks: number;
  /** Players whose ranked balance changed, new players included. */
  moved: number;
  /** Of them, players new to the view. */
  joined: number;
  /** The view's version after the apply (unchanged when nothing moved). */
  version: number;
  splits: number;
  merges: number;
  durationMs: number;
}

/** A step of the apply, for tests that stop it between steps (a crash mid-update rolls it all back). */
export type ApplyStep = 'marks-taken' | 'blocks-counted' | 'entries-written' | 'blocks-reshaped';

export interface ApplyOptions {
  maxMarks?: number;
  /** Called inside the transaction after each step; a throw there aborts the whole apply. */
  afterStep?: (step: ApplyStep) => void | Promise<void>;
}

interface Block {
  lo_money: string;
  lo_neg: number;
  hi_money: string;
  hi_neg: number;
  n: number;
  above: number;
}

/** The block holding key (money, neg), as a LATERAL source: the block with the greatest lo not above the key. */
const blockOf = (money: string, neg: string) =>
  `LATERAL (SELECT b.lo_money, b.lo_neg FROM rank_blocks b WHERE (b.lo_money, b.lo_neg) <= (${money}, ${neg}) ORDER BY b.lo_money DESC, b.lo_neg DESC LIMIT 1)`;

/**
 * Applies up to `maxMarks` marks in one transaction; null when another process holds the apply.
 * Idempotent per player: an entry is set to the balance read in the same statement that took its
 * marks, so a mark applied twice (or a mark whose change the entry already has) changes nothing.
 */
export const applyRankChanges = async (db: Db, nowMs: number, opts: ApplyOptions = {}): Promise<RankApply | null> => {
  const started = performance.now();
  const step = opts.afterStep ?? (() => {});
  return transaction(db, async (tx) => {
    if (!(await rankLock(tx, false))) return null;
    const meta = await tx.query<{ version: number; block_size: number; pending: boolean }>(
      'SELECT version, block_size, EXISTS (SELECT 1 FROM rank_next) AS pending FROM rank_meta WHERE id = 1',
    );
    const { block_size: size, pending } = meta.rows[0]!;
    // A rebuilt view waits to be swapped in: the marks are for it, not for the view about to go.
    if (pending) return null;
    let version = Number(meta.rows[0]!.version);
    // The marks and the balances in one statement, so one snapshot: a change committed after it
    // left a mark this statement cannot see, and that mark stays for the next apply.
    const taken = await tx.query<{ id: number; m: string; old: string | null; moved: boolean; marks: number }>(
      `WITH d AS (
         DELETE FROM rank_dirty WHERE ctid = ANY (ARRAY(SELECT ctid FROM rank_dirty LIMIT $1)) RETURNING user_id
       ), c AS (SELECT DISTINCT user_id FROM d)
       SELECT c.user_id AS id, u.total_money AS m, e.total_money AS old, e.total_money IS DISTINCT FROM u.total_money AS moved,
              (SELECT count(*) FROM d)::int AS marks
       FROM c JOIN users u ON u.id = c.user_id LEFT JOIN rank_entries e ON e.user_id = c.user_id`,
      [opts.maxMarks ?? marksPerApply],
    );
    const marks = taken.rows[0]?.marks ?? 0;
    const moved = taken.rows.filter((r) => r.moved);
    const joined = moved.filter((r) => r.old === null).length;
    const result = (splits = 0, merges = 0): RankApply => ({ marks, moved: moved.length, joined, version, splits, merges, durationMs: Math.round(performance.now() - started) });
    // Fewer marks than asked for: none waited that this statement could see, so the view holds
    // every change committed before the tick began.
    const caughtUpMs = marks > 0 && marks < (opts.maxMarks ?? marksPerApply) ? nowMs : null;
    await step('marks-taken');
    if (moved.length === 0) {
      if (caughtUpMs !== null) await tx.query('UPDATE rank_meta SET caught_up_at_ms = $1 WHERE id = 1', [caughtUpMs]);
      return result();
    }
    const ids = moved.map((r) => r.id);
    const news = moved.map((r) => r.m);
    const olds = moved.map((r) => r.old);
    // Each mover leaves the block of its old key and joins the block of its new one.
    await tx.query(
      `WITH ch AS (SELECT * FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS c(id, m, old)),
       moves AS (
         SELECT b.lo_money, b.lo_neg, -1 AS d FROM ch CROSS JOIN ${blockOf('ch.old', '-ch.id')} b WHERE ch.old IS NOT NULL
         UNION ALL
         SELECT b.lo_money, b.lo_neg, 1 FROM ch CROSS JOIN ${blockOf('ch.m', '-ch.id')} b
       ), agg AS (SELECT lo_money, lo_neg, sum(d)::bigint AS d FROM moves GROUP BY 1, 2)
       UPDATE rank_blocks r SET n = r.n + agg.d FROM agg WHERE r.lo_money = agg.lo_money AND r.lo_neg = agg.lo_neg AND agg.d <> 0`,
      [ids, news, olds],
    );
    await step('blocks-counted');
    version += 1;
    await tx.query(
      `INSERT INTO rank_entries (user_id, total_money, neg_id, version)
       SELECT id, m, -id, $3 FROM unnest($1::bigint[], $2::numeric[]) AS c(id, m)
       ON CONFLICT (user_id) DO UPDATE SET total_money = EXCLUDED.total_money, version = EXCLUDED.version`,
      [ids, news, version],
    );
    await step('entries-written');
    const splits = await splitBlocks(tx, size);
    const merges = await mergeBlocks(tx, size);
    await step('blocks-reshaped');
    // Every block's `above` is the sum of `n` over the blocks above it; only the changed are written.
    await tx.query(
      `UPDATE rank_blocks r SET above = s.above
       FROM (SELECT lo_money, lo_neg,
                    COALESCE(sum(n) OVER (ORDER BY lo_money DESC, lo_neg DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)::bigint AS above
             FROM rank_blocks) s
       WHERE r.lo_money = s.lo_money AND r.lo_neg = s.lo_neg AND r.above <> s.above`,
    );
    await tx.query('UPDATE rank_meta SET version = $1, total = total + $2, applied_at_ms = $3, caught_up_at_ms = COALESCE($4, caught_up_at_ms) WHERE id = 1', [
      version, joined, nowMs, caughtUpMs,
    ]);
    return result(splits, merges);
  });
};

const blockColumns = 'lo_money, lo_neg, hi_money, hi_neg, n, above';

/** Cuts every block of more than 2 × size entries into blocks of `size` (the bottom one keeps the rest). */
const splitBlocks = async (tx: Queryable, size: number): Promise<number> => {
  const over = await tx.query<Block>(`SELECT ${blockColumns} FROM rank_blocks WHERE n > $1`, [2 * size]);
  let made = 0;
  for (const b of over.rows) {
    const pieces = Math.ceil(Number(b.n) / size);
    // The last key of each upper piece, best first: positions size, 2·size, … (pieces − 1)·size.
    // LIMIT bounds the scan by the block (a row comparison stops a B-tree scan on its first column
    // only, so the lower bound alone would read on through a run of tied balances).
    const cuts = await tx.query<{ m: string; g: number }>(
      `SELECT total_money AS m, neg_id AS g FROM (
         SELECT total_money, neg_id, row_number() OVER (ORDER BY total_money DESC, neg_id DESC) AS i
         FROM (SELECT total_money, neg_id FROM rank_entries WHERE (total_money, neg_id) < ($3::numeric, $4::bigint)
               ORDER BY total_money DESC, neg_id DESC LIMIT $6) top
         WHERE (total_money, neg_id) >= ($1::numeric, $2::bigint)
       ) x WHERE i % $5 = 0 ORDER BY i`,
      [b.lo_money, b.lo_neg, b.hi_money, b.hi_neg, size, (pieces - 1) * size],
    );
    const c = cuts.rows;
    for (let p = 0; p < c.length; p++) {
      const hi = p === 0 ? { m: b.hi_money, g: b.hi_neg } : c[p - 1]!;
      await tx.query('INSERT INTO rank_blocks (lo_money, lo_neg, hi_money, hi_neg, n, above) VALUES ($1, $2, $3, $4, $5, $6)', [
        c[p]!.m, c[p]!.g, hi.m, hi.g, size, Number(b.above) + p * size,
      ]);
    }
    if (c.length > 0)
      await tx.query('UPDATE rank_blocks SET hi_money = $3, hi_neg = $4, n = n - $5, above = above + $5 WHERE lo_money = $1 AND lo_neg = $2', [
        b.lo_money, b.lo_neg, c.at(-1)!.m, c.at(-1)!.g, c.length * size,
      ]);
    made += c.length;
  }
  return made;
};

/**
 * Joins every block of fewer than size / 4 entries to a neighbour (the one below; the bottom block
 * takes the one above it) when the two together are at most 2 × size.
 */
const mergeBlocks = async (tx: Queryable, size: number): Promise<number> => {
  const small = await tx.query<{ lo_money: string; lo_neg: number }>('SELECT lo_money, lo_neg FROM rank_blocks WHERE n < $1', [Math.floor(size / 4)]);
  let merged = 0;
  for (const s of small.rows) {
    const x = (await tx.query<Block>(`SELECT ${blockColumns} FROM rank_blocks WHERE lo_money = $1 AND lo_neg = $2`, [s.lo_money, s.lo_neg])).rows[0];
    if (x === undefined || Number(x.n) >= Math.floor(size / 4)) continue;
    const below = (await tx.query<Block>(`SELECT ${blockColumns} FROM rank_blocks WHERE hi_money = $1 AND hi_neg = $2`, [x.lo_money, x.lo_neg])).rows[0];
    const above = below === undefined ? (await tx.query<Block>(`SELECT ${blockColumns} FROM rank_blocks WHERE lo_money = $1 AND lo_neg = $2`, [x.hi_money, x.hi_neg])).rows[0] : undefined;
    const [upper, lower] = below !== undefined ? [x, below] : above !== undefined ? [above, x] : [undefined, undefined];
    if (upper === undefined || lower === undefined || Number(upper.n) + Number(lower.n) > 2 * size) continue;
    await tx.query('DELETE FROM rank_blocks WHERE lo_money = $1 AND lo_neg = $2', [upper.lo_money, upper.lo_neg]);
    await tx.query('UPDATE rank_blocks SET hi_money = $3, hi_neg = $4, n = n + $5, above = $6 WHERE lo_money = $1 AND lo_neg = $2', [
      lower.lo_money, lower.lo_neg, upper.hi_money, upper.hi_neg, upper.n, upper.above,
    ]);
    merged += 1;
  }
  return merged;
};

/**
 * Applies marks until none remain or `maxApplies` transactions ran; null when another process is
 * applying. Between two applies it waits as long as the last one took, so that a backlog of marks
 * takes at most half of one core from the requests (docs/scaling.md "A bulk import").
 */
export const applyPendingRanks = async (db: Db, nowMs: number, opts: ApplyOptions = {}): Promise<RankApply | null> => {
  let sum: RankApply | null = null;
  let lastMs = 0;
  for (let i = 0; i < maxApplies; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, lastMs));
    const a = await applyRankChanges(db, nowMs, opts);
    if (a === null) return sum;
    lastMs = a.durationMs;
    sum =
      sum === null
        ? a
        : { marks: sum.marks + a.marks, moved: sum.moved + a.moved, joined: sum.joined + a.joined, version: a.version, splits: sum.splits + a.splits, merges: sum.merges + a.merges, durationMs: sum.durationMs + a.durationMs };
    if (a.marks < (opts.maxMarks ?? marksPerApply)) break;
  }
  return sum;
};

export const defaultBlockSize = 2048;

export interface RankRebuild {
  players: number;
  version: number;
  durationMs: number;
  /** Of it, the swap, its tries included (a reader waits at most one try: `swapLockTimeout`). */
  swapMs: number;
}

export interface RebuildOptions {
  /** false (the ranks job): give up, null, when another process holds the view. */
  wait?: boolean;
  /** Called between the build's commit and the swap (tests: changes that arrive meanwhile). */
  afterBuild?: () => void | Promise<void>;
}

/** Swaps tried before a rebuild gives up (the next tick finishes it), each waiting `swapLockTimeout` for the tables. */
const swapAttempts = 20;
/**
 * Below PostgreSQL's deadlock_timeout (1 s): should a reader take the tables in the other order
 * than the swap, the swap gives up first and is tried again; the reader never sees the error.
 */
const swapLockTimeout = '200ms';

/**
 * Builds the view from scratch from users and swaps it in (migration 1100's rank_build and
 * rank_swap), in two transactions: the build fills new tables while readers keep the old view (at
 * 10M players it takes minutes, bounded by the jobs' statement timeout on its own), the swap
 * replaces the tables by renames in milliseconds. The build takes the marks it covers: they are
 * deleted by a statement before the one that reads users, so a change committed before the
 * deletion is in the read, and a change committed after it left a mark the deletion did not see,
 * which the first apply after the swap takes (harmlessly, if the read had it already). Between the
 * two steps the apply leaves the marks alone, and the ranks job finishes a swap left undone.
 */
export async function rebuildRanks(db: Db, nowMs: number, blockSize?: number, opts?: RebuildOptions & { wait?: true }): Promise<RankRebuild>;
export async function rebuildRanks(db: Db, nowMs: number, blockSize: number | undefined, opts: RebuildOptions): Promise<RankRebuild | null>;
export async function rebuildRanks(db: Db, nowMs: number, blockSize = defaultBlockSize, opts: RebuildOptions = {}): Promise<RankRebuild | null> {
  const started = performance.now();
  const built = await transaction(db, async (tx) => {
    if (!(await rankLock(tx, opts.wait))) return false;
    // The blocks come from one sort of every entry, the indexes from one sort each.
    await tx.exec("SET LOCAL work_mem = '256MB'; SET LOCAL maintenance_work_mem = '512MB'");
    await tx.query('DELETE FROM rank_dirty');
    await tx.query('SELECT rank_build($1, $2)', [blockSize, nowMs]);
    return true;
  });
  if (!built) return null;
  await opts.afterBuild?.();
  // null: the ranks job of another process swapped the build in first, or the old view moved past
  // it (an apply of the previous code, mid-deploy: every player is marked for the next rebuild).
  // Either way, the view's figures as they stand.
  const swapped = await finishRebuild(db, nowMs, started);
  if (swapped !== null) return swapped;
  const meta = await rankMeta(db);
  return { players: meta.total, version: meta.version, durationMs: Math.round(performance.now() - started), swapMs: 0 };
}

/** The swap of a view built by a rebuild that stopped before it (null: none waits, or another process swapped it). */
const finishRebuild = async (db: Db, nowMs: number, started = performance.now()): Promise<RankRebuild | null> => {
  const swapped = await swapRanks(db, nowMs);
  return swapped === null ? null : { ...swapped, durationMs: Math.round(performance.now() - started) };
};

/** The apply's lock, waited for or tried (false: another process holds it). */
const rankLock = async (tx: Queryable, wait = true): Promise<boolean> => {
  if (wait) {
    await tx.query(`SELECT pg_advisory_xact_lock(${rankLockSql})`);
    return true;
  }
  const lock = await tx.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${rankLockSql}) AS ok`);
  return lock.rows[0]?.ok === true;
};

/**
 * Swaps a built view in (null when none waits: another process swapped it). Tried again while a
 * reader holds the tables past `swapLockTimeout`; readers arriving meanwhile wait at most that long.
 */
const swapRanks = async (db: Db, nowMs: number): Promise<Omit<RankRebuild, 'durationMs'> | null> => {
  const started = performance.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction(db, async (tx) => {
        await rankLock(tx);
        await tx.exec(`SET LOCAL lock_timeout = '${swapLockTimeout}'`);
        const r = await tx.query<{ players: number | null }>('SELECT rank_swap($1) AS players', [nowMs]);
        const players = r.rows[0]!.players;
        if (players === null) return null;
        const { version } = await rankMeta(tx);
        return { players: Number(players), version, swapMs: Math.round(performance.now() - started) };
      });
    } catch (err) {
      if (!isLockTimeout(err) || attempt >= swapAttempts) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
};

/**
 * Past this many waiting marks (and a twentieth of the view's players) the ranks job rebuilds the
 * view instead of applying them: a rebuild costs about 4.4 µs a player, an apply about 42 µs a
 * mark (bench/RESULTS.md), so a twentieth of the players is where the apply would take half as long
 * as the rebuild, and both stay within the 60 s bound at 10M players (docs/scaling.md "A bulk import").
 */
export const rebuildMinMarks = 100_000;
export const rebuildThreshold = (players: number): number => Math.max(rebuildMinMarks, Math.ceil(players / 20));

/**
 * The marks waiting, counted up to `cap` (the queue has no index: the count reads `cap` rows at
 * most, whatever waits behind them).
 */
export const marksWaiting = async (q: Queryable, cap: number): Promise<number> => {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM (SELECT 1 FROM rank_dirty LIMIT $1) s', [cap]);
  return Number(r.rows[0]!.n);
};

export type RankCatchUp = { kind: 'apply'; applied: RankApply | null; waiting: number } | { kind: 'rebuild'; rebuilt: RankRebuild | null; waiting: number };

/**
 * One tick of the ranks job's work on the view: the waiting marks applied (up to `maxApplies`
 * transactions, yielding between them), or, when at least `rebuildThreshold` of them wait (a bulk
 * import, a restore, a launch burst), the view rebuilt from scratch into new tables and swapped in,
 * readers keeping the previous version until the swap. `waiting` is the count it decided on.
 */
export const catchUpRanks = async (
  db: Db,
  nowMs: number,
  opts: ApplyOptions & { rebuildAt?: number; onWaiting?: (waiting: number, caughtUpAtMs: number) => void } = {},
): Promise<RankCatchUp> => {
  const meta = await rankMeta(db);
  const threshold = opts.rebuildAt ?? rebuildThreshold(meta.total);
  const waiting = await marksWaiting(db, threshold);
  opts.onWaiting?.(waiting, meta.caughtUpAtMs);
  // A rebuild stopped between its build and its swap (its process ended): the swap first.
  if (meta.pending) return { kind: 'rebuild', rebuilt: await finishRebuild(db, nowMs), waiting };
  if (waiting >= threshold) return { kind: 'rebuild', rebuilt: await rebuildRanks(db, nowMs, meta.blockSize, { wait: false }), waiting };
  return { kind: 'apply', applied: waiting === 0 ? emptyApply(meta.version) : await applyPendingRanks(db, nowMs, opts), waiting };
};

const emptyApply = (version: number): RankApply => ({ marks: 0, moved: 0, joined: 0, version, splits: 0, merges: 0, durationMs: 0 });

/**
 * The view's version, size, last change, and the moment up to which it holds every marked change
 * (`caughtUpAtMs`: the ranks job's staleness is now − caughtUpAtMs while marks wait).
 */
export const rankMeta = async (
  q: Queryable,
): Promise<{ version: number; total: number; appliedAtMs: number; caughtUpAtMs: number; blockSize: number; pending: boolean }> => {
  const r = await q.query<{ version: number; total: number; applied_at_ms: number; caught_up_at_ms: number; block_size: number; pending: boolean }>(
    'SELECT version, total, applied_at_ms, caught_up_at_ms, block_size, EXISTS (SELECT 1 FROM rank_next) AS pending FROM rank_meta WHERE id = 1',
  );
  const m = r.rows[0]!;
  return {
    version: Number(m.version), total: Number(m.total), appliedAtMs: Number(m.applied_at_ms), caughtUpAtMs: Number(m.caught_up_at_ms), blockSize: Number(m.block_size),
    pending: m.pending,
  };
};
