/**
 * The reconciliation job (docs/shop.md "Reconciliation"): reads the bot's Star transactions from
 * getStarTransactions (oldest first, from where the last run stopped) and compares each with our
 * payments; a payment Telegram lists that we never credited, one whose Stars differ, a refund we
 * did not record, and a payment of ours Telegram has not listed a day later are flagged in
 * `star_reconciliation` for the console. Each run reads at most `maxPages` pages of 100.
 */
import type { AdminStarsFlag, StarsProblem } from '../../engine/wire/admin-types.ts';
import type { CoreConfig } from '../core/config/config.ts';
import type { Queryable } from '../core/db/db.ts';
import type { Job } from '../core/jobs/job.ts';
import type { ShopSettings } from './settings.ts';
import { starTransactions } from './stars-api.ts';

const pageSize = 100;
const maxPages = 20;
/** A payment of ours Telegram has not listed after this is flagged. */
const listedWithinMs = 86_400_000;

export interface ReconcileResult {
  read: number;
  flagged: number;
}

type Problem = StarsProblem;

const flag = async (tx: Queryable, chargeId: string, problem: Problem, detail: string, nowMs: number): Promise<number> =>
  (await tx.query('INSERT INTO star_reconciliation (charge_id, problem, detail, found_at_ms) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [chargeId, problem, detail, nowMs])).rowCount;

export const reconcileStars = async (tx: Queryable, config: Pick<CoreConfig, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS'>, nowMs: number): Promise<ReconcileResult> => {
  const mark = (await tx.query<{ offset_read: number }>('SELECT offset_read FROM star_reconciliation_mark WHERE id = 1 FOR UPDATE')).rows[0];
  let offset = Number(mark?.offset_read ?? 0);
  let read = 0;
  let flagged = 0;
  for (let page = 0; page < maxPages; page++) {
    const list = await starTransactions(config, offset, pageSize);
    const ids = list.map((t) => t.id);
    const ours = new Map(
      (await tx.query<{ charge_id: string; stars: number; refunded_at_ms: number | null }>('SELECT charge_id, stars, refunded_at_ms FROM star_payments WHERE charge_id = ANY($1::text[])', [ids])).rows.map((r) => [r.charge_id, r]),
    );
    for (const t of list) {
      const p = ours.get(t.id);
      if (t.direction === 'in') {
        if (p === undefined) flagged += await flag(tx, t.id, 'unknownHere', `Telegram lists a payment of ${t.amount} Stars (payload ${t.payload ?? '—'}) we never received`, nowMs);
        else if (Number(p.stars) !== t.amount) flagged += await flag(tx, t.id, 'starsDiffer', `Telegram: ${t.amount} Stars, ours: ${p.stars}`, nowMs);
      } else if (t.direction === 'refund' && (p === undefined || p.refunded_at_ms === null)) {
        flagged += await flag(tx, t.id, 'refundDiffers', `Telegram lists a refund of ${t.amount} Stars we did not record`, nowMs);
      }
    }
    const incoming = list.filter((t) => t.direction === 'in').map((t) => t.id);
    if (incoming.length) await tx.query('UPDATE star_payments SET seen_at_telegram = true WHERE charge_id = ANY($1::text[])', [incoming]);
    offset += list.length;
    read += list.length;
    if (list.length < pageSize) break;
  }
  const unseen = await tx.query<{ charge_id: string; stars: number }>(
    'SELECT charge_id, stars FROM star_payments WHERE NOT seen_at_telegram AND received_at_ms < $1 ORDER BY received_at_ms LIMIT 1000',
    [nowMs - listedWithinMs],
  );
  for (const p of unseen.rows) flagged += await flag(tx, p.charge_id, 'missingAtTelegram', `our payment of ${p.stars} Stars is not in getStarTransactions a day later`, nowMs);
  await tx.query('UPDATE star_reconciliation_mark SET offset_read = $1, ran_at_ms = $2 WHERE id = 1', [offset, nowMs]);
  return { read, flagged };
};

/** The job: once per SHOP_RECONCILE_MS window across processes (server/background/jobs.ts). */
export const starsReconcileJob = (config: Pick<CoreConfig, 'BOT_TOKEN' | 'BOT_API_ROOT' | 'OUTSIDE_TIMEOUT_MS'> & ShopSettings): Job<ReconcileResult> => ({
  name: 'stars-reconcile',
  periodOf: (nowMs) => String(Math.floor(nowMs / config.SHOP_RECONCILE_MS)),
  checkEveryMs: Math.max(1_000, Math.floor(config.SHOP_RECONCILE_MS / 4)),
  run: ({ tx, nowMs }) => reconcileStars(tx, config, nowMs),
});

/** What the console lists: the flags, newest first. */
export const reconciliationFlags = async (q: Queryable, limit = 100): Promise<AdminStarsFlag[]> =>
  (await q.query<{ charge_id: string; problem: Problem; detail: string; found_at_ms: number }>('SELECT * FROM star_reconciliation ORDER BY found_at_ms DESC LIMIT $1', [limit])).rows.map((r) => ({
    chargeId: r.charge_id,
    problem: r.problem,
    detail: r.detail,
    foundAtMs: Number(r.found_at_ms),
  }));
