/**
 * The operators' list of flagged players (docs/airdrop.md "Integrity review"): every player under
 * review or ever decided, highest score first, keyset-paged on (score, user id) over the partial
 * index integrity_players_flagged_idx, so a page costs its own rows whatever the list's length.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AirdropFlag, AirdropFlagRow, AirdropFlagsPage, AirdropReasonCode, AirdropReviewState } from '../../engine/wire/airdrop-review.ts';
import { isAirdropReasonCode } from '../../engine/wire/airdrop-review.ts';
import { toWire } from '../../engine/rules/money.ts';
import type { Queryable } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';
import { reasonSentence, trustSentence, type Evidence } from './rules.ts';

/**
 * A cursor: `<score>:<userId>:<mac>` of the previous page's last row, where mac binds the position
 * to the list it was issued for (the state filter) with the server's key (flagsCursorKeyOf): a
 * well-formed cursor no page issued is refused like a malformed one.
 */
const cursorPattern = /^(-?(?:0|[1-9][0-9]{0,8})):([1-9][0-9]{0,15}):([A-Za-z0-9_-]{22})$/;
const scoreBound = 2_147_483_647;

/** The key cursors are signed with: derived from the bot token, the one secret every deployment has (production requires it). */
export const flagsCursorKeyOf = (c: { BOT_TOKEN?: string | undefined }): Buffer =>
  createHmac('sha256', 'money-flags-cursor').update(c.BOT_TOKEN ?? 'development only: no BOT_TOKEN').digest();

const macOf = (key: Buffer, score: number, userId: number, state: AirdropReviewState | undefined): string =>
  createHmac('sha256', key).update(`flags1:${state ?? '*'}:${score}:${userId}`).digest().subarray(0, 16).toString('base64url');

/** The cursor a page answers for its last row. */
export const signFlagsCursor = (key: Buffer, score: number, userId: number, state?: AirdropReviewState): string => `${score}:${userId}:${macOf(key, score, userId, state)}`;

/** Parses a cursor strictly (a 400 naming `cursor` otherwise): both parts in their columns' range, signed for this list. */
export const parseFlagsCursor = (key: Buffer, text: string, state?: AirdropReviewState): { score: number; userId: number } => {
  const m = cursorPattern.exec(text);
  const score = m === null ? NaN : Number(m[1]);
  const userId = m === null ? NaN : Number(m[2]);
  if (m === null || Math.abs(score) > scoreBound || !Number.isSafeInteger(userId)) throw refuse('flagsCursorInvalid', { field: 'cursor' });
  const given = Buffer.from(m[3]!);
  const expected = Buffer.from(macOf(key, score, userId, state));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse('flagsCursorInvalid', { field: 'cursor' });
  return { score, userId };
};

export interface FlagRow {
  user_id: number;
  score: number;
  state: AirdropReviewState;
  reasons: string[];
  evidence: Evidence | string;
  decision: 'cleared' | 'excluded' | null;
  appeal: 'upheld' | 'overturned' | null;
  decided_at_ms: number | null;
  decision_note: string;
  tele_username: string;
  total_money: string;
}

const codesOf = (reasons: readonly string[]): AirdropReasonCode[] => reasons.filter(isAirdropReasonCode);

const flagOf = (r: FlagRow): AirdropFlag => ({ userId: String(r.user_id), score: r.score, state: r.state, reasons: codesOf(r.reasons) });

/** A row with each reason's sentence and the trust behind the score. */
export const flagRowOf = (r: FlagRow): AirdropFlagRow => {
  const evidence = (typeof r.evidence === 'string' ? JSON.parse(r.evidence) : r.evidence) as Evidence;
  const trust = trustSentence(evidence);
  return {
    ...flagOf(r),
    teleUsername: r.tele_username,
    totalMoney: toWire(r.total_money),
    decision: r.decision,
    appeal: r.appeal,
    evidence: [...codesOf(r.reasons).map((code) => ({ code, text: reasonSentence(code, evidence) })), ...(trust === null ? [] : [{ code: 'trust' as const, text: trust }])],
    decidedAtMs: r.decided_at_ms === null ? null : Number(r.decided_at_ms),
    decisionNote: r.decision_note,
  };
};

export const flagsPageMax = 100;

export interface FlagsPageOpts {
  /** The key cursors are signed with (flagsCursorKeyOf). */
  cursorKey: Buffer;
  cursor?: string;
  limit: number;
  state?: AirdropReviewState;
}

const pageOf = async (q: Queryable, opts: FlagsPageOpts): Promise<{ rows: FlagRow[]; nextCursor: string | null }> => {
  const at = opts.cursor === undefined ? null : parseFlagsCursor(opts.cursorKey, opts.cursor, opts.state);
  const r = await q.query<FlagRow>(
    `SELECT p.user_id, p.score, p.state, p.reasons, p.evidence, p.decision, p.appeal, p.decided_at_ms, p.decision_note, u.tele_username, u.total_money
       FROM integrity_players p JOIN users u ON u.id = p.user_id
      WHERE p.flagged AND ($1::int IS NULL OR (p.score, p.user_id) < ($1::int, $2::bigint)) AND ($3::text IS NULL OR p.state = $3)
      ORDER BY p.score DESC, p.user_id DESC LIMIT $4`,
    [at?.score ?? null, at?.userId ?? null, opts.state ?? null, opts.limit + 1],
  );
  const rows = r.rows.slice(0, opts.limit);
  const last = rows[rows.length - 1];
  return { rows, nextCursor: r.rows.length > opts.limit && last !== undefined ? signFlagsCursor(opts.cursorKey, last.score, Number(last.user_id), opts.state) : null };
};

/** A page of the list as the operator API answers it. */
export const listFlags = async (q: Queryable, opts: FlagsPageOpts): Promise<AirdropFlagsPage> => {
  const { rows, nextCursor } = await pageOf(q, opts);
  return { items: rows.map(flagOf), nextCursor };
};

/** A page of the list as the console shows it: with who each player is and the evidence behind each reason. */
export const listFlagRows = async (q: Queryable, opts: FlagsPageOpts): Promise<AirdropFlagsPage<AirdropFlagRow>> => {
  const { rows, nextCursor } = await pageOf(q, opts);
  return { items: rows.map(flagRowOf), nextCursor };
};

/** How many players are under review now, undecided (the console's count before a snapshot). */
export const openReviews = async (q: Queryable): Promise<number> =>
  Number((await q.query<{ n: number }>("SELECT count(*)::int AS n FROM integrity_players WHERE flagged AND state = 'review'")).rows[0]!.n);

/** One player's review as the console shows it, or null when the job has never looked at them. */
export const flagOfPlayer = async (q: Queryable, userId: number): Promise<AirdropFlagRow | null> => {
  const r = await q.query<FlagRow>('SELECT p.*, u.tele_username, u.total_money FROM integrity_players p JOIN users u ON u.id = p.user_id WHERE p.user_id = $1', [userId]);
  return r.rows[0] === undefined ? null : flagRowOf(r.rows[0]);
};
