/**
 * The bot's reminders (docs/rules.md §15.4): the profile card's switch, the player's active hours,
 * the due time kept on writes, and the job that queues what is due into the broadcast queue.
 *
 * `daily_reminders.remind_at_ms` is the earliest moment a player may be due: every write that can
 * make them due sooner keeps it (an app open, a streak claim, the switch turned on), and nothing
 * makes them due sooner without one (taps and claims only push energy and income later). The job
 * reads only the rows whose moment has come, through the partial index on it, decides each with
 * the rule (reminder-rule.ts) on the fresh row, and queues a reminder or moves the moment on, so
 * its work grows with the players due, never with all players.
 */
import { utcDayOf } from '../../engine/rules/daily.ts';
import { economy } from '../../engine/rules/economy.ts';
import { maxEnergy } from '../../engine/rules/energy.ts';
import { localeForLanguageCode, type Locale } from '../../engine/rules/i18n/locales.ts';
import { passivePerSecond } from '../../engine/rules/passive.ts';
import { appendRecipients, createDirectBroadcast, deliveryStates, type InlineButton } from '../bot/exports.ts';
import { BoundedMap } from '../core/bounded-map.ts';
import { catalogText } from '../core/catalog-text.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { loadUser, type UserRow } from '../players/exports.ts';
import { countDailyMany } from './counts.ts';
import { decideReminder, type ReminderFacts, type ReminderReason } from './reminder-rule.ts';

const hourMs = 3_600_000;

/** What the rule needs of a player, from their users row and their reminders row. */
interface PlayerRow {
  id: number;
  energy: number;
  energy_at_ms: number;
  energy_level: number;
  levels: Record<string, number>;
  last_claimed_ms: number;
  daily_streak_day: number;
  reminders_off: boolean;
  language: string | null;
  language_code: string | null;
  active_hours: number[];
  seen_hour: number;
  reminded_day: number;
  reminded_at_ms: number;
  last_broadcast_id: number | null;
  blocked_at_ms: number | null;
}

const playerColumns = `u.id, u.energy, u.energy_at_ms, u.energy_level, u.levels, u.last_claimed_ms, u.daily_streak_day, u.reminders_off,
  u.language, u.language_code, r.active_hours, r.seen_hour, r.reminded_day, r.reminded_at_ms, r.last_broadcast_id, r.blocked_at_ms`;

/** The rule's facts of a player (numbers from BIGINT columns arrive as numbers or strings). */
export const factsOf = (p: PlayerRow): ReminderFacts => {
  const energyAt = Number(p.energy_at_ms);
  const max = maxEnergy(p.energy_level);
  const lastClaimed = Number(p.last_claimed_ms);
  return {
    lastActiveMs: Math.max(lastClaimed, energyAt, Number(p.seen_hour) * hourMs),
    energyFullAtMs: p.energy >= max ? energyAt : energyAt + (max - p.energy) * economy.energyRegenIntervalMs,
    passiveCapAtMs: passivePerSecond(p.levels) > 0 ? lastClaimed + economy.offlineRewardCapMs : null,
    streakDay: Number(p.daily_streak_day),
    remindedDay: Number(p.reminded_day),
    remindedAtMs: Number(p.reminded_at_ms),
    activeHours: p.active_hours.map(Number),
  };
};

/** The next due moment of a player as they are now: null when reminders are off, blocked or nothing is coming. */
const dueMomentOf = (p: PlayerRow, nowMs: number, awayMs: number): number | null => {
  if (p.reminders_off || p.blocked_at_ms !== null) return null;
  const d = decideReminder(factsOf(p), nowMs, awayMs);
  return 'send' in d ? nowMs : d.nextAtMs;
};

/** Moves a player's due moment to what they are now, in the caller's transaction (after a write that can make them due sooner). */
export const rescheduleReminder = async (tx: Queryable, userId: number, nowMs: number, awayMs: number): Promise<void> => {
  const r = await tx.query<PlayerRow>(`SELECT ${playerColumns} FROM users u JOIN daily_reminders r ON r.user_id = u.id WHERE u.id = $1 FOR UPDATE OF r`, [userId]);
  const p = r.rows[0];
  if (p === undefined) return;
  await tx.query('UPDATE daily_reminders SET remind_at_ms = $2 WHERE user_id = $1', [userId, dueMomentOf(p, nowMs, awayMs)]);
};

/**
 * The player opened the app (the status call): counts the clock hour in their active hours and
 * keeps their due moment a lower bound, in one statement. Having just been seen, a player can be due
 * no sooner than an hour from now (§15.4), so the moment becomes at most that: the job decides
 * the real one then, on the fresh row. A process remembers the hour it counted for each player, so
 * the database is written at most once per player and hour.
 */
export const createActivityNoter = (db: Db, awayMs: number) => {
  const noted = new BoundedMap<number, number>(200_000);
  return async (userId: number, nowMs: number): Promise<void> => {
    const hour = Math.floor(nowMs / hourMs);
    if (noted.get(userId) === hour) return;
    const bucket = new Date(nowMs).getUTCHours();
    const first = Array.from({ length: 24 }, (_, h) => (h === bucket ? 1 : 0));
    await db.query(
      `INSERT INTO daily_reminders (user_id, active_hours, seen_hour, remind_at_ms)
       VALUES ($1, $4::int[], $2, CASE WHEN (SELECT reminders_off FROM users WHERE id = $1) THEN NULL ELSE $3::bigint END)
       ON CONFLICT (user_id) DO UPDATE SET
         active_hours[$5] = daily_reminders.active_hours[$5] + 1,
         seen_hour = $2,
         remind_at_ms = CASE WHEN daily_reminders.blocked_at_ms IS NOT NULL OR (SELECT reminders_off FROM users WHERE id = $1) THEN NULL
                             ELSE LEAST(COALESCE(daily_reminders.remind_at_ms, $3::bigint), $3::bigint) END
       WHERE daily_reminders.seen_hour < $2`,
      [userId, hour, nowMs + awayMs, first, bucket + 1],
    );
    noted.set(userId, hour);
  };
};

/** POST /daily/reminders: on or off. Off clears the due moment, so the job never reads the player. */
export const setReminders = (db: Db, userId: number, on: boolean, nowMs: number, awayMs: number): Promise<UserRow> =>
  transaction(db, async (tx) => {
    await loadUser(tx, userId, true);
    await tx.query('UPDATE users SET reminders_off = $2 WHERE id = $1', [userId, !on]);
    if (on) await rescheduleReminder(tx, userId, nowMs, awayMs);
    else await tx.query('UPDATE daily_reminders SET remind_at_ms = NULL WHERE user_id = $1', [userId]);
    return loadUser(tx, userId);
  });

/** What noteBotReachable reads of a player: a block found by the job, or a 403 on their last reminder it has not read yet. */
const refusalToForget = async (q: Queryable, userId: number, lock: boolean): Promise<boolean> => {
  const r = await q.query<{ blocked_at_ms: number | null; last_broadcast_id: number | null }>(
    `SELECT blocked_at_ms, last_broadcast_id FROM daily_reminders WHERE user_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  const row = r.rows[0];
  if (row === undefined) return false;
  if (row.blocked_at_ms !== null) return true;
  if (row.last_broadcast_id === null) return false;
  const last = Number(row.last_broadcast_id);
  return (await deliveryStates(q, [{ broadcastId: last, chatId: userId }])).get(`${last}:${userId}`) === 'blocked';
};

/**
 * The player wrote to the bot in its private chat (/start or any message): whatever Telegram said
 * before, the bot can reach them now (§15.4). A block found by the job (`blocked_at_ms`), or a 403 on
 * their last reminder that the job has not read yet, is forgotten with that reminder, and their due
 * moment is decided again, in one transaction. True when a block was cleared; a player with no
 * reminders row or nothing refused changes nothing.
 *
 * Every private message comes here, and in webhook mode Telegram's answer waits for it, while
 * almost no player was ever refused: a plain read first, and only a player with something to forget
 * takes the row's lock (behind the reminders job's batch, if it holds it) and is read again under it.
 */
export const noteBotReachable = async (db: Db, userId: number, nowMs: number, awayMs: number): Promise<boolean> => {
  if (!(await refusalToForget(db, userId, false))) return false;
  return transaction(db, async (tx) => {
    if (!(await refusalToForget(tx, userId, true))) return false;
    await tx.query('UPDATE daily_reminders SET blocked_at_ms = NULL, last_broadcast_id = NULL WHERE user_id = $1', [userId]);
    await rescheduleReminder(tx, userId, nowMs, awayMs);
    return true;
  });
};

export interface ReminderJobOptions {
  /** The most players one run decides. */
  batch: number;
  /** The mini-app's URL for the message's button (an https URL: Telegram opens web apps over https only). */
  miniAppUrl: string;
  /** How long a player must have been away before a reminder (REMINDERS_AWAY_MS). */
  awayMs: number;
}

export interface ReminderRunResult {
  /** Players whose moment had come. */
  read: number;
  queued: number;
  blocked: number;
}

const reminderText = (reason: ReminderReason, locale: Locale): string =>
  catalogText('bot', locale, `bot.reminder.${reason}`, { hours: economy.offlineRewardCapMs / hourMs });

const buttonsOf = (opts: ReminderJobOptions, locale: Locale): InlineButton[] =>
  opts.miniAppUrl.startsWith('https://') ? [{ text: catalogText('bot', locale, 'bot.start.button'), web_app: { url: opts.miniAppUrl } }] : [];

/** Today's broadcast of one reason in one language: created with the first such reminder of the day. */
const broadcastFor = async (tx: Queryable, opts: ReminderJobOptions, day: number, reason: ReminderReason, locale: Locale, nowMs: number): Promise<number> => {
  const known = await tx.query<{ broadcast_id: number }>('SELECT broadcast_id FROM daily_reminder_broadcasts WHERE day = $1 AND reason = $2 AND language = $3', [day, reason, locale]);
  if (known.rows[0] !== undefined) return Number(known.rows[0].broadcast_id);
  const id = await createDirectBroadcast(tx, { message: reminderText(reason, locale), buttons: buttonsOf(opts, locale) }, { kind: 'reminder', day, reason, language: locale }, nowMs);
  await tx.query('INSERT INTO daily_reminder_broadcasts (day, reason, language, broadcast_id) VALUES ($1, $2, $3, $4)', [day, reason, locale, id]);
  return id;
};

/**
 * The players whose moment has come ($1 now, $2 the batch): a range of the partial index on
 * remind_at_ms, oldest first, the rows locked for this run. Their rows are then read by primary key
 * (playersByIdSql), so no plan can turn the batch into a scan of all players.
 */
export const dueRemindersSql = `SELECT user_id FROM daily_reminders WHERE remind_at_ms <= $1 ORDER BY remind_at_ms LIMIT $2 FOR UPDATE SKIP LOCKED`;

/** What the rule needs of the players $1 (ids), by primary key. */
export const playersByIdSql = `SELECT ${playerColumns} FROM unnest($1::bigint[]) AS d(id)
  JOIN users u ON u.id = d.id JOIN daily_reminders r ON r.user_id = d.id`;

/**
 * One run of the reminders job, in the job's transaction: the players whose moment has come (an
 * index range scan on remind_at_ms, at most `batch`, oldest first), each decided on their fresh
 * row. A player whose last reminder Telegram refused with 403 has blocked the bot: never tried
 * again until they write to the bot (noteBotReachable). A reminder still in the queue is not
 * followed by another.
 */
export const runReminders = async (tx: Queryable, opts: ReminderJobOptions, nowMs: number): Promise<ReminderRunResult> => {
  const due = await tx.query<{ user_id: number }>(dueRemindersSql, [nowMs, opts.batch]);
  const rows = due.rows.length === 0 ? [] : (await tx.query<PlayerRow>(playersByIdSql, [due.rows.map((r) => Number(r.user_id))])).rows;
  const players = rows.map((p) => ({ ...p, id: Number(p.id), last_broadcast_id: p.last_broadcast_id === null ? null : Number(p.last_broadcast_id) }));
  const delivery = await deliveryStates(
    tx,
    players.filter((p) => p.last_broadcast_id !== null).map((p) => ({ broadcastId: p.last_broadcast_id!, chatId: p.id })),
  );
  const today = utcDayOf(nowMs);
  const updates: { id: number; remindAt: number | null; remindedDay: number; remindedAt: number; broadcastId: number | null; blockedAt: number | null }[] = [];
  const sends = new Map<string, { reason: ReminderReason; locale: Locale; ids: number[] }>();
  const blocked: number[] = [];
  for (const p of players) {
    const keep = { id: p.id, remindedDay: Number(p.reminded_day), remindedAt: Number(p.reminded_at_ms), broadcastId: p.last_broadcast_id, blockedAt: p.blocked_at_ms };
    const state = p.last_broadcast_id === null ? undefined : delivery.get(`${p.last_broadcast_id}:${p.id}`);
    if (state === 'blocked') {
      blocked.push(p.id);
      updates.push({ ...keep, remindAt: null, blockedAt: nowMs });
      continue;
    }
    if (state === 'queued') {
      updates.push({ ...keep, remindAt: nowMs + opts.awayMs });
      continue;
    }
    if (p.reminders_off || p.blocked_at_ms !== null) {
      updates.push({ ...keep, remindAt: null });
      continue;
    }
    const decision = decideReminder(factsOf(p), nowMs, opts.awayMs);
    if (!('send' in decision)) {
      updates.push({ ...keep, remindAt: decision.nextAtMs });
      continue;
    }
    const locale = localeForLanguageCode(p.language ?? p.language_code);
    const key = `${decision.send}:${locale}`;
    const group = sends.get(key) ?? { reason: decision.send, locale, ids: [] };
    group.ids.push(p.id);
    sends.set(key, group);
    // After this reminder, the next moment is decided as if it had been sent now.
    const next = decideReminder({ ...factsOf(p), remindedDay: today, remindedAtMs: nowMs }, nowMs, opts.awayMs);
    updates.push({ ...keep, remindedDay: today, remindedAt: nowMs, remindAt: 'send' in next ? null : next.nextAtMs, broadcastId: -1 });
  }
  const broadcastOf = new Map<number, number>();
  for (const g of sends.values()) {
    const id = await broadcastFor(tx, opts, today, g.reason, g.locale, nowMs);
    await appendRecipients(tx, id, g.ids);
    for (const u of g.ids) broadcastOf.set(u, id);
  }
  if (updates.length > 0) {
    await tx.query(
      `UPDATE daily_reminders r SET remind_at_ms = v.at, reminded_day = v.day, reminded_at_ms = v.rat, last_broadcast_id = v.b, blocked_at_ms = v.blk
         FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[]) AS v(id, at, day, rat, b, blk)
        WHERE r.user_id = v.id`,
      [
        updates.map((u) => u.id),
        updates.map((u) => u.remindAt),
        updates.map((u) => u.remindedDay),
        updates.map((u) => u.remindedAt),
        updates.map((u) => (u.broadcastId === -1 ? broadcastOf.get(u.id)! : u.broadcastId)),
        updates.map((u) => u.blockedAt),
      ],
    );
  }
  const queued = [...sends.values()].flatMap((g) => g.ids);
  await countDailyMany(tx, today, queued, 'reminders_queued');
  await countDailyMany(tx, today, blocked, 'reminders_blocked');
  return { read: players.length, queued: queued.length, blocked: blocked.length };
};

