/**
 * The Great Snapshot (docs/airdrop.md): an operator freezes a round's allocations, builds the
 * TEP-177 dictionary, stores it (BoC in chunks) with its Merkle root. A round is immutable once
 * built: asking again returns what was built and changes nothing.
 */
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { refuse, type Refusal } from '../core/errors.ts';
import { treeFromBoc, treeToBoc } from './airdrop-boc.ts';
import { buildAirdropTree, rawAddressKey, rootHash, type AirdropTree } from './airdrop-tree.ts';
import { excludedPlayerSql } from '../integrity/exports.ts';
import type { ExcludedMoney, RoundParams, RoundSummary } from '../../engine/wire/admin-types.ts';

/** Jetton units per MONEY: the jetton has 9 decimals. */
export const jettonDecimals = 9;

/**
 * Eligibility, in this one place (docs/airdrop.md "Eligibility"): a linked, verified TON wallet,
 * a MONEY balance above 0, not frozen, not excluded by the integrity review (server/integrity/).
 * Allocation = the MONEY balance at the snapshot, in jetton units (× 10^9; balances have at most 9
 * decimals, so nothing is rounded away). The excluded are those who would be eligible but for the
 * review: their amount is withheld (airdrop_exclusions).
 * MONEY earned through bought boosts (`users.bought_money`, docs/airdrop.md "Bought boosts") counts
 * only when the operator says so (AIRDROP_COUNTS_BOUGHT_BOOSTS, off by default): `$2` of the statement.
 */
const countedMoneySql = `(u.total_money - CASE WHEN $2::boolean THEN 0 ELSE u.bought_money END)`;
const allocationsSql = (excluded: boolean) => `
  SELECT w.address, u.id AS user_id, trunc(${countedMoneySql} * ${10 ** jettonDecimals}) AS amount, u.airdrop_reasons
  FROM users u
  JOIN ton_wallets w ON w.user_id = u.id
  WHERE ${countedMoneySql} > 0
    AND u.frozen_at IS NULL
    AND ${excluded ? '' : 'NOT '}${excludedPlayerSql}
`;
const eligibleAllocationsSql = allocationsSql(false);

interface RoundRow {
  round: number;
  status: 'building' | 'built';
  start_from: number;
  expire_at: number;
  wallets: number;
  total_amount: string;
  merkle_root: string | null;
  boc_bytes: number | null;
  excluded_money: ExcludedMoney;
  excluded_players: number;
  excluded_amount: string;
  excluded_reasons: Record<string, number> | string;
}

const summaryOf = (r: RoundRow): RoundSummary => ({
  round: r.round,
  status: r.status,
  startFrom: r.start_from,
  expireAt: r.expire_at,
  wallets: r.wallets,
  totalAmount: r.total_amount,
  merkleRoot: r.merkle_root,
  bocBytes: r.boc_bytes,
  excludedMoney: r.excluded_money,
  excludedPlayers: r.excluded_players,
  excludedAmount: r.excluded_amount,
  excludedReasons: typeof r.excluded_reasons === 'string' ? (JSON.parse(r.excluded_reasons) as Record<string, number>) : r.excluded_reasons,
});

export const roundSummary = async (q: Queryable, round: number): Promise<RoundSummary | null> => {
  const r = await q.query<RoundRow>('SELECT * FROM airdrop_rounds WHERE round = $1', [round]);
  return r.rows[0] === undefined ? null : summaryOf(r.rows[0]);
};

/** The newest built round (the one the claim API serves), or null. */
export const latestBuiltRound = async (q: Queryable): Promise<RoundSummary | null> => {
  const r = await q.query<RoundRow>("SELECT * FROM airdrop_rounds WHERE status = 'built' ORDER BY round DESC LIMIT 1");
  return r.rows[0] === undefined ? null : summaryOf(r.rows[0]);
};

/**
 * Freezes the allocations: the round row and every eligible player's amount, in one transaction.
 * The excluded players' MONEY (docs/airdrop.md "Exclusions"), as the operator chooses per round:
 * left unminted, or redistributed to the eligible players pro rata to their amounts, exact to the
 * jetton unit with the total unchanged: each gets floor(excluded × amount ÷ total), and the units
 * left over go one each to the largest remainders (ties by address).
 */
const freeze = async (db: Db, p: RoundParams, nowMs: number, countsBought: boolean): Promise<RoundSummary> =>
  transaction(db, async (tx) => {
    const created = await tx.query(
      `INSERT INTO airdrop_rounds (round, status, start_from, expire_at, wallets, total_amount, created_at_ms, excluded_money)
       VALUES ($1, 'building', $2, $3, 0, 0, $4, $5) ON CONFLICT (round) DO NOTHING`,
      [p.round, p.startFrom, p.expireAt, nowMs, p.excludedMoney ?? 'unminted'],
    );
    if (created.rowCount === 0) return (await roundSummary(tx, p.round))!;
    // The exclusions first, on the record with their reasons; the round keeps their count, amount and reasons.
    await tx.query(
      `WITH excluded AS (
         INSERT INTO airdrop_exclusions (round, user_id, amount, reasons)
         SELECT $1, x.user_id, x.amount, COALESCE(x.airdrop_reasons, '{}') FROM (${allocationsSql(true)}) x
         RETURNING amount, reasons
       )
       UPDATE airdrop_rounds SET (excluded_players, excluded_amount, excluded_reasons) = (
         (SELECT count(*) FROM excluded), (SELECT COALESCE(sum(amount), 0) FROM excluded),
         (SELECT COALESCE(jsonb_object_agg(reason, n), '{}'::jsonb) FROM (SELECT reason, count(*) AS n FROM excluded, unnest(excluded.reasons) AS reason GROUP BY reason) r)
       ) WHERE round = $1`,
      [p.round, countsBought],
    );
    // One statement writes the allocations and counts them (no second scan of a million rows).
    await tx.query(
      p.excludedMoney === 'redistributed'
        ? `WITH e AS (${eligibleAllocationsSql}),
                x AS (SELECT excluded_amount AS ex FROM airdrop_rounds WHERE round = $1),
                q AS (SELECT e.address, e.user_id, e.amount, div(x.ex * e.amount, t.total) AS base, mod(x.ex * e.amount, t.total) AS rem
                        FROM e, x, (SELECT sum(amount) AS total FROM e) t),
                r AS (SELECT q.*, row_number() OVER (ORDER BY rem DESC, address COLLATE "C") AS rk, (SELECT ex FROM x) - sum(base) OVER () AS leftover FROM q),
                frozen AS (
                  INSERT INTO airdrop_allocations (round, address, user_id, amount)
                  SELECT $1, r.address, r.user_id, r.amount + r.base + CASE WHEN r.rk <= r.leftover THEN 1 ELSE 0 END FROM r
                  RETURNING amount
                )
           UPDATE airdrop_rounds SET (wallets, total_amount) = (SELECT count(*), COALESCE(sum(amount), 0) FROM frozen) WHERE round = $1`
        : `WITH frozen AS (
             INSERT INTO airdrop_allocations (round, address, user_id, amount)
             SELECT $1, e.address, e.user_id, e.amount FROM (${eligibleAllocationsSql}) e
             RETURNING amount
           )
           UPDATE airdrop_rounds SET (wallets, total_amount) = (SELECT count(*), COALESCE(sum(amount), 0) FROM frozen) WHERE round = $1`,
      [p.round, countsBought],
    );
    const s = (await roundSummary(tx, p.round))!;
    if (s.wallets === 0) throw refuse('noEligiblePlayer', { field: 'round' });
    return s;
  });

const chunkBytes = 8 << 20;

/** Builds the dictionary of a frozen round from its allocations (sorted by key), stores it and marks the round built. */
const buildFrozen = async (db: Db, s: RoundSummary, nowMs: number, phase: PhaseLog, onBuilt?: OnBuilt): Promise<{ summary: RoundSummary; tree: AirdropTree }> => {
  // Linked wallets are basechain raw addresses (`0:` + lowercase hex), so byte order of the text
  // is the dictionary's key order; the check below sorts in JS should that ever not hold.
  const rows = await db.query<{ address: string; amount: string }>('SELECT address, amount FROM airdrop_allocations WHERE round = $1 ORDER BY address COLLATE "C"', [
    s.round,
  ]);
  phase('read allocations');
  let sorted = rows.rows.map((r) => ({ key: rawAddressKey(r.address), amount: r.amount }));
  rows.rows.length = 0;
  if (!sorted.every((e, i) => i === 0 || Buffer.compare(sorted[i - 1]!.key, e.key) < 0)) {
    // Buffer order is the key order; a latin1 string sorts the same way, natively.
    const order = sorted.map((e, i) => `${e.key.toString('latin1')}${i}`).sort();
    sorted = order.map((k) => sorted[Number(k.slice(34))]!);
  }
  phase('keys and order');
  const tree = buildAirdropTree(
    sorted.map((e) => e.key),
    sorted.map((e) => ({ amount: BigInt(e.amount), startFrom: s.startFrom, expireAt: s.expireAt })),
  );
  phase('build dictionary');
  const boc = treeToBoc(tree);
  const root = rootHash(tree).toString('hex');
  phase('write BoC');
  await transaction(db, async (tx) => {
    for (let seq = 0; seq * chunkBytes < boc.length; seq++) {
      // Base64 text, decoded by the database: PGlite serializes a bytea parameter about 10× slower.
      await tx.query("INSERT INTO airdrop_dict_chunks (round, seq, bytes) VALUES ($1, $2, decode($3, 'base64')) ON CONFLICT DO NOTHING", [
        s.round,
        seq,
        boc.subarray(seq * chunkBytes, (seq + 1) * chunkBytes).toString('base64'),
      ]);
    }
    const marked = await tx.query(
      "UPDATE airdrop_rounds SET status = 'built', merkle_root = $2, boc_bytes = $3, built_at_ms = $4 WHERE round = $1 AND status = 'building'",
      [s.round, root, boc.length, nowMs],
    );
    if (marked.rowCount === 1 && onBuilt !== undefined) await onBuilt(tx, (await roundSummary(tx, s.round))!);
  });
  phase('store BoC');
  return { summary: (await roundSummary(db, s.round))!, tree };
};

/**
 * What is wrong with a new round's dates, or null: claims must close after they open, and in the
 * future (a round is immutable once built, so one already closed could never be claimed).
 */
export const roundDatesProblem = (p: RoundParams, nowMs: number): Refusal | null => {
  if (p.expireAt <= p.startFrom) return refuse('expireBeforeStart', { field: 'expireAt' });
  const nowS = Math.floor(nowMs / 1000);
  if (p.expireAt <= nowS) return refuse('expireInPast', { field: 'expireAt', values: { now: nowS } });
  return null;
};

/** Called after each step of a build with the step's name (the bench prints durations). */
export type PhaseLog = (name: string) => void;

/** Runs in the transaction that marks the round built, by the call that built it (the audit row). */
export type OnBuilt = (tx: Queryable, summary: RoundSummary) => Promise<void>;

/**
 * Takes the snapshot of a round, or returns the one already taken. Dates refused by
 * roundDatesProblem are a 400 for a round not built yet (a built round is answered as it is). A
 * round asked for with other dates than it was built with is a 409 naming the field. A round left
 * 'building' by a stopped process is finished from its frozen allocations.
 */
export const takeSnapshot = async (
  db: Db,
  p: RoundParams,
  nowMs: number,
  phase: PhaseLog = () => {},
  onBuilt?: OnBuilt,
  countsBought = false,
): Promise<{ summary: RoundSummary; created: boolean; tree?: AirdropTree }> => {
  const before = await roundSummary(db, p.round);
  if (before?.status !== 'built') {
    const problem = roundDatesProblem(p, nowMs);
    if (problem !== null) throw problem;
  }
  const s = before ?? (await freeze(db, p, nowMs, countsBought));
  phase('freeze allocations');
  if (s.startFrom !== p.startFrom) throw refuse('roundStartFromDiffers', { field: 'startFrom', values: { round: p.round, startFrom: s.startFrom } });
  if (s.expireAt !== p.expireAt) throw refuse('roundExpireAtDiffers', { field: 'expireAt', values: { round: p.round, expireAt: s.expireAt } });
  if (p.excludedMoney !== undefined && s.excludedMoney !== p.excludedMoney) {
    throw refuse('excludedMoneyDiffers', { field: 'excludedMoney', values: { round: p.round, excludedMoney: s.excludedMoney } });
  }
  if (s.status === 'built') return { summary: s, created: false };
  const built = await buildFrozen(db, s, nowMs, phase, onBuilt);
  return { ...built, created: before === null };
};

/** Reads a built round's dictionary back from its stored BoC. */
export const loadRoundTree = async (db: Db, round: number): Promise<AirdropTree> => {
  const r = await db.query<{ b64: string }>("SELECT encode(bytes, 'base64') AS b64 FROM airdrop_dict_chunks WHERE round = $1 ORDER BY seq", [round]);
  return treeFromBoc(Buffer.concat(r.rows.map((row) => Buffer.from(row.b64, 'base64'))));
};

/** The player's allocation in the newest built round that has one, in MONEY. */
export const allocationOf = async (db: Db, userId: number): Promise<{ round: number; amount: string; startFrom: number; expireAt: number } | null> => {
  const r = await db.query<{ round: number; amount: string; start_from: number; expire_at: number }>(
    `SELECT a.round, trim_scale(a.amount / ${10 ** jettonDecimals})::text AS amount, r.start_from, r.expire_at
     FROM airdrop_allocations a JOIN airdrop_rounds r ON r.round = a.round
     WHERE a.user_id = $1 AND r.status = 'built' ORDER BY a.round DESC LIMIT 1`,
    [userId],
  );
  const row = r.rows[0];
  return row === undefined ? null : { round: row.round, amount: row.amount, startFrom: row.start_from, expireAt: row.expire_at };
};

const building = new Map<number, ReturnType<typeof takeSnapshot>>();

/**
 * takeSnapshot as the operator API and the console call it: one build per round at a time in this
 * process (a second caller waits for the first and gets `created: false`), and dates that differ
 * from a built round's refused (409).
 */
export const takeSnapshotOnce = async (db: Db, p: RoundParams, nowMs: number, onBuilt?: OnBuilt, phase?: PhaseLog, countsBought = false): Promise<{ summary: RoundSummary; created: boolean; tree?: AirdropTree }> => {
  let job = building.get(p.round);
  const waited = job !== undefined;
  if (job === undefined) {
    job = takeSnapshot(db, p, nowMs, phase, onBuilt, countsBought).finally(() => building.delete(p.round));
    building.set(p.round, job);
  }
  const { summary, created, tree } = await job;
  if (summary.startFrom !== p.startFrom || summary.expireAt !== p.expireAt) throw refuse('roundDatesDiffer', { field: 'startFrom', values: { round: p.round } });
  if (p.excludedMoney !== undefined && summary.excludedMoney !== p.excludedMoney) {
    throw refuse('excludedMoneyDiffers', { field: 'excludedMoney', values: { round: p.round, excludedMoney: summary.excludedMoney } });
  }
  return { summary, created: created && !waited, ...(tree !== undefined ? { tree } : {}) };
};

