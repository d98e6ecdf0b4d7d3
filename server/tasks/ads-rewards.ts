/**
 * Ad rewards (§2 "Daily Oppotunity", §9: 10 a day). One ad watch = one row of ad_watch_sessions,
 * opened by /start-watch-ads and rewarded at most once, by whichever comes first: the client's
 * /claim-ads-reward with the signed token, or Adsgram's server callback. The session nonce is the
 * dedupe key: a repeated callback or a replayed token finds the session already rewarded.
 */
import { economy } from '../../engine/rules/economy.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { creditMoney } from '../players/exports.ts';
import { progressOf, recordTaskProgress, type Progress, type TaskRow } from './tasks.ts';
import { refuse } from '../core/errors.ts';
import { newAdsNonce, signAdsToken } from './ads-token.ts';
import { transaction } from '../core/db/transaction.ts';

export interface AdsReward {
  /** MONEY credited by this call ("0" when the watch was already rewarded). */
  credited: string;
  numberOfDone: number;
  hasDone: boolean;
}

/** The ADS task (§3 type ADS); null when none is active. */
export const loadAdsTask = async (q: Queryable): Promise<TaskRow | null> => {
  const r = await q.query<TaskRow>(`SELECT * FROM tasks WHERE type = 'ADS' AND active ORDER BY sort_order, id LIMIT 1`);
  return r.rows[0] ?? null;
};

/** Opens an ad watch and returns its signed token; refuses once today's 10 are done. */
export const startAdWatch = async (db: Db, secret: string, ttlMs: number, userId: number, task: TaskRow, nowMs: number): Promise<string> => {
  const progress = await progressOf(db, userId, task, nowMs);
  if (progress.hasDone || progress.numberOfDone >= economy.adsPerDay) throw refuse('adsDailyLimit', { values: { count: economy.adsPerDay } });
  const nonce = newAdsNonce();
  const expiresAtMs = nowMs + ttlMs;
  await db.query('INSERT INTO ad_watch_sessions (nonce, user_id, issued_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4)', [nonce, userId, nowMs, expiresAtMs]);
  return signAdsToken(secret, { userId: String(userId), nonce, expiresAtMs });
};

/** Credits one ad view inside `tx`: task progress (10 a day), then the reward with its ledger row. */
const rewardView = async (tx: Queryable, userId: number, task: TaskRow, nonce: string, via: 'client' | 'callback', nowMs: number): Promise<AdsReward | null> => {
  const progress: Progress | null = await recordTaskProgress(tx, userId, task, nowMs, { target: economy.adsPerDay });
  if (progress === null) return null;
  const credited = await creditMoney(tx, { userId, amount: task.reward, kind: 'ads', reference: `ads:${nonce}`, nowMs });
  await tx.query(`UPDATE ad_watch_sessions SET rewarded_at_ms = $2, rewarded_via = $3 WHERE nonce = $1`, [nonce, nowMs, via]);
  return { credited, ...progress };
};

/**
 * The client's claim with a verified token: the token is spent (a second use is a 409); the watch
 * is credited unless Adsgram's callback already did.
 */
export const claimWithToken = (db: Db, userId: number, task: TaskRow, nonce: string, nowMs: number): Promise<AdsReward> =>
  transaction(db, async (tx) => {
    const spent = await tx.query<{ rewarded_at_ms: number | null }>(
      `UPDATE ad_watch_sessions SET token_used_at_ms = $3
        WHERE nonce = $1 AND user_id = $2 AND token_used_at_ms IS NULL
        RETURNING rewarded_at_ms`,
      [nonce, userId, nowMs],
    );
    const session = spent.rows[0];
    if (session === undefined) throw refuse('adTokenUsed', { field: 'encryptData' });
    if (session.rewarded_at_ms !== null) return { credited: '0', ...(await progressOf(tx, userId, task, nowMs)) };
    const reward = await rewardView(tx, userId, task, nonce, 'client', nowMs);
    if (reward === null) throw refuse('adsDailyLimit', { values: { count: economy.adsPerDay } });
    return reward;
  });

/**
 * Adsgram's server callback for a user: rewards the oldest open (unrewarded, unexpired) watch.
 * No open watch (a duplicate callback, or no watch started) credits nothing.
 */
export const rewardFromCallback = (db: Db, userId: number, task: TaskRow, nowMs: number): Promise<{ credited: string; reason?: string }> =>
  transaction(db, async (tx) => {
    const open = await tx.query<{ nonce: string }>(
      `SELECT nonce FROM ad_watch_sessions
        WHERE user_id = $1 AND rewarded_at_ms IS NULL AND expires_at_ms > $2
        ORDER BY issued_at_ms, nonce LIMIT 1 FOR UPDATE`,
      [userId, nowMs],
    );
    const nonce = open.rows[0]?.nonce;
    if (nonce === undefined) return { credited: '0', reason: 'no open ad watch (duplicate callback?)' };
    const reward = await rewardView(tx, userId, task, nonce, 'callback', nowMs);
    if (reward === null) {
      await tx.query(`UPDATE ad_watch_sessions SET rewarded_at_ms = $2, rewarded_via = 'limit' WHERE nonce = $1`, [nonce, nowMs]);
      return { credited: '0', reason: 'daily limit reached' };
    }
    return { credited: reward.credited };
  });
