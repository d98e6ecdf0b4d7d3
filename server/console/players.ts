/**
 * The console's player views (docs/admin.md "Players"): search by id, refcode or username prefix
 * (each an index lookup), a player's detail, referrals and ledger (keyset-paged), freeze/unfreeze.
 */
import type { CheatSignal, LedgerEntry, Page, PlayerDetail, PlayerSummary, ReferralEntry } from '../../engine/wire/admin-types.ts';
import { toWire } from '../../engine/rules/money.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { isTelegramUserIdText, parseMsIdCursor } from '../core/db/column-ranges.ts';
import { refuse } from '../core/errors.ts';
import { recordAudit, type Actor } from '../audit/exports.ts';
import { transaction } from '../core/db/transaction.ts';

interface Row {
  id: number;
  refcode: string;
  tele_username: string;
  total_earn: string;
  total_money: string;
  total_click: number;
  invite_cnt: number;
  created_at_ms: number;
  last_active_ms: number | null;
  last_claimed_ms: number | string;
  energy_at_ms: number | string;
  frozen_at: Date | string | null;
  language_code: string | null;
}

const summaryColumns =
  'id, refcode, tele_username, total_earn, total_money, total_click, invite_cnt, created_at_ms, last_active_ms, last_claimed_ms, energy_at_ms, frozen_at, language_code';

/**
 * A player's last activity (docs/admin.md "Players"): the latest of the columns their own writes
 * keep, so no request pays for it. The sign-in hook marks `last_active_ms` once a UTC day (the
 * dashboard's active players), a tap moves the energy clock `energy_at_ms` (the click write, which
 * stays heap-only: neither is indexed there), and the offline claim, every 90 s while the app is
 * open, moves `last_claimed_ms`.
 */
const lastActiveOf = (r: Row): number | null =>
  r.last_active_ms === null ? null : Math.max(Number(r.last_active_ms), Number(r.last_claimed_ms), Number(r.energy_at_ms));

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

const summaryOf = (r: Row): PlayerSummary => ({
  id: String(r.id),
  refcode: r.refcode,
  teleUsername: r.tele_username,
  totalEarn: toWire(r.total_earn),
  totalMoney: toWire(r.total_money),
  totalClick: Number(r.total_click),
  inviteCnt: r.invite_cnt,
  createdAtMs: Number(r.created_at_ms),
  lastActiveMs: lastActiveOf(r),
  frozenAt: iso(r.frozen_at),
  languageCode: r.language_code,
});

export const searchLimit = 20;

/**
 * Exact id, exact refcode, or username prefix (case-insensitive, a leading @ ignored). Each is an
 * index lookup (primary key, users_refcode_key, users_username_search_idx), never a scan. A number
 * that cannot be a Telegram id (above 2^53−1) is no id lookup: it finds nobody by id.
 */
export const searchPlayers = async (q: Queryable, term: string): Promise<PlayerSummary[]> => {
  const t = term.trim().replace(/^@/, '');
  if (t === '') return [];
  const out = new Map<number, PlayerSummary>();
  const add = (rows: Row[]) => rows.forEach((r) => out.set(Number(r.id), summaryOf(r)));
  if (isTelegramUserIdText(t)) add((await q.query<Row>(`SELECT ${summaryColumns} FROM users WHERE id = $1`, [t])).rows);
  if (/^[A-Za-z0-9]{6}$/.test(t)) add((await q.query<Row>(`SELECT ${summaryColumns} FROM users WHERE refcode = $1`, [t])).rows);
  // LIKE with a pattern-escaped prefix: the text_pattern_ops index answers it as a range.
  const prefix = t.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  add(
    (await q.query<Row>(`SELECT ${summaryColumns} FROM users WHERE lower(tele_username) LIKE $1 ORDER BY lower(tele_username) LIMIT $2`, [`${prefix}%`, searchLimit]))
      .rows,
  );
  return [...out.values()].slice(0, searchLimit);
};

/**
 * The players who joined last, newest first: what the Players page lists before a search. One
 * backward range of users_created_idx, a page long, whatever the number of players.
 */
export const recentPlayers = async (q: Queryable): Promise<PlayerSummary[]> =>
  (await q.query<Row>(`SELECT ${summaryColumns} FROM users ORDER BY created_at_ms DESC, id DESC LIMIT $1`, [searchLimit])).rows.map(summaryOf);

export const playerDetail = async (q: Queryable, id: number): Promise<PlayerDetail> => {
  const r = await q.query<Row & Record<string, unknown>>('SELECT * FROM users WHERE id = $1', [id]);
  const u = r.rows[0];
  if (u === undefined) throw refuse('playerNotFound', { field: 'id', values: { id } });
  return {
    ...summaryOf(u),
    refLevel: Number(u.ref_level),
    referredBy: u.referred_by === null ? null : String(u.referred_by),
    teleAge: Number(u.tele_age),
    twUsername: (u.tw_username as string | null) ?? null,
    twAge: Number(u.tw_age),
    isPremium: u.is_premium === true,
    isClaimedWelcome: u.is_claimed_welcome === true,
    preWlComing: Number(u.pre_wl_coming),
    totalRef: toWire(u.total_ref as string),
    totalMoneyRef: toWire(u.total_money_ref as string),
    energyLevel: Number(u.energy_level),
    fingerLevel: Number(u.finger_level),
  };
};

export const pageSize = 25;

/** A player's ledger, newest first, paged by id (ledger_user_id_idx); `before` is a ledger id as text (any BIGINT, exact). */
export const playerLedger = async (q: Queryable, id: number, before: string | undefined): Promise<Page<LedgerEntry>> => {
  const r = await q.query<{ id: number; currency: 'DOLLAR' | 'MONEY'; amount: string; kind: string; reference: string | null; created_at_ms: number }>(
    `SELECT id, currency, amount, kind, reference, created_at_ms FROM ledger
      WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [id, before ?? null, pageSize + 1],
  );
  const rows = r.rows.slice(0, pageSize);
  return {
    items: rows.map((x) => ({ id: String(x.id), currency: x.currency, amount: toWire(x.amount), kind: x.kind, reference: x.reference, createdAtMs: Number(x.created_at_ms) })),
    next: r.rows.length > pageSize ? String(rows[rows.length - 1]!.id) : null,
  };
};

/**
 * A player's invited friends, newest first, paged by (created_at_ms, friend_id) (referrals_referrer_idx);
 * `cursor` is the previous page's `next`, `<ms>:<id>` (the edge refuses any other).
 */
export const playerReferrals = async (q: Queryable, id: number, cursor: string | undefined): Promise<Page<ReferralEntry>> => {
  const at = cursor === undefined ? null : parseMsIdCursor(cursor);
  if (cursor !== undefined && at === null) throw refuse('invalidParameter', { field: 'before', values: { rule: 'must be the next of the previous page, <ms>:<id>' } });
  const r = await q.query<{ friend_id: number; tele_username: string; status: 'pending' | 'credited'; bonus: string; total_earn: string; created_at_ms: number }>(
    `SELECT r.friend_id, u.tele_username, r.status, r.bonus, u.total_earn, r.created_at_ms
       FROM referrals r JOIN users u ON u.id = r.friend_id
      WHERE r.referrer_id = $1 AND ($2::bigint IS NULL OR (r.created_at_ms, r.friend_id) < ($2, $3::bigint))
      ORDER BY r.created_at_ms DESC, r.friend_id DESC LIMIT $4`,
    [id, at?.ms ?? null, at?.id ?? null, pageSize + 1],
  );
  const rows = r.rows.slice(0, pageSize);
  const last = rows[rows.length - 1];
  return {
    items: rows.map((x) => ({ friendId: String(x.friend_id), teleUsername: x.tele_username, status: x.status, bonus: toWire(x.bonus), totalEarn: toWire(x.total_earn), createdAtMs: Number(x.created_at_ms) })),
    next: r.rows.length > pageSize && last ? `${last.created_at_ms}:${last.friend_id}` : null,
  };
};

/** Freezes or unfreezes a player, with its audit row, in one transaction. Returns the new frozen_at. */
export const setFrozen = async (db: Db, actor: Actor, id: number, frozen: boolean, reason: string, nowMs: number): Promise<string | null> =>
  transaction(db, async (tx) => {
    const before = await tx.query<{ frozen_at: Date | string | null }>('SELECT frozen_at FROM users WHERE id = $1 FOR UPDATE', [id]);
    if (before.rows[0] === undefined) throw refuse('playerNotFound', { field: 'id', values: { id } });
    const after = await tx.query<{ frozen_at: Date | string | null }>(
      `UPDATE users SET frozen_at = CASE WHEN $2 THEN COALESCE(frozen_at, to_timestamp($3::double precision / 1000)) END WHERE id = $1 RETURNING frozen_at`,
      [id, frozen, nowMs],
    );
    const was = iso(before.rows[0].frozen_at);
    const now = iso(after.rows[0]!.frozen_at);
    await recordAudit(tx, { actor, action: frozen ? 'player.freeze' : 'player.unfreeze', target: `player:${id}`, before: { frozenAt: was }, after: { frozenAt: now, reason }, nowMs });
    return now;
  });

export type CheatSort = 'clipped' | 'refused';

/** The players with the most refused taps or clipped batches (cheat_signals, kept by the console job). */
export const cheatSignals = async (q: Queryable, sort: CheatSort, limit = 50): Promise<CheatSignal[]> => {
  const order = sort === 'clipped' ? 'c.clipped_batches DESC' : 'c.refused_taps DESC';
  const r = await q.query<{ user_id: number; tele_username: string | null; clipped_batches: number; refused_taps: number; accepted_taps: number; last_at_ms: number; frozen: boolean }>(
    `SELECT c.*, u.tele_username, u.frozen_at IS NOT NULL AS frozen FROM cheat_signals c LEFT JOIN users u ON u.id = c.user_id
      ORDER BY ${order}, c.user_id LIMIT $1`,
    [limit],
  );
  return r.rows.map((x) => ({
    userId: String(x.user_id),
    teleUsername: x.tele_username ?? '',
    clippedBatches: Number(x.clipped_batches),
    refusedTaps: Number(x.refused_taps),
    acceptedTaps: Number(x.accepted_taps),
    lastAtMs: Number(x.last_at_ms),
    frozen: x.frozen === true,
  }));
};
