/**
 * The bot's reminders (docs/rules.md §15.4) end to end on the server side: the app open keeps the
 * due moment, the reminders job (as scheduled) queues what is due into the broadcast queue, and the
 * real broadcast worker delivers it to the Bot API stand-in, in the player's language. Days and
 * hours are stepped on the injected clock; deliveries are awaited, never timed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UserStatus } from '../../engine/wire/api-types.ts';
import { dayStartMs, utcDayOf } from '../../engine/rules/daily.ts';
import { catalogText } from '../../server/core/catalog-text.ts';
import { runJobIfDue } from '../../server/core/jobs/job.ts';
import { createGameBot } from '../../server/background/game-bot.ts';
import { startBroadcastWorker, type BroadcastWorker } from '../../server/bot/broadcast-worker.ts';
import { dailyRemindersJob } from '../../server/daily/jobs.ts';
import { dueRemindersSql, playersByIdSql } from '../../server/daily/reminders.ts';
import { startFakeTelegram, type FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { setBalances } from '../server/db-helpers.ts';
import { loadConfig } from '../../server/background/settings.ts';
import { testEnv } from '../server/harness.ts';
import { backends, botToken, openServicesHarness, type ServicesHarness, waitFor } from './harness.ts';

const hour = 3_600_000;
const everyMs = 60_000;
const job = dailyRemindersJob({ everyMs, batch: 500, miniAppUrl: 'https://money.example/app', awayMs: hour });

describe.each(backends)('reminders from the bot (%s)', (backend) => {
  let h: ServicesHarness;
  let tg: FakeTelegram;
  let worker: BroadcastWorker;
  // Each test owns a stretch of days far from the others'.
  let base = utcDayOf(Date.UTC(2027, 5, 1));
  const at = (d: number, hh: number, mm = 0) => dayStartMs(d) + hh * hour + mm * 60_000;
  /** Runs the reminders job as the scheduler would at this moment (once per period). */
  const runJob = async (ms: number) => {
    h.clock.set(ms);
    const out = await runJobIfDue(h.db, job, ms);
    if (!out.ran) throw new Error('the reminders job did not run');
    return out.result;
  };
  const open = (id: number, profile: Record<string, unknown> = {}) => h.call('GET', '', { id, first_name: 'P', username: `p${id}`, ...profile });
  const sentTo = (id: number) => tg.delivered.filter((m) => m.chat_id === id);
  /** Waits until the worker has delivered `n` messages to `id` and recorded Telegram's answers. */
  const delivered = (id: number, n: number) =>
    waitFor(
      async () => sentTo(id).length === n && (await h.db.query("SELECT 1 FROM broadcast_recipients WHERE chat_id = $1 AND status IN ('pending', 'sending')", [id])).rows.length === 0,
      `${n} reminder(s) to ${id}`,
    );
  const remindAt = async (id: number) => (await h.db.query<{ at: string | null }>('SELECT remind_at_ms::text AS at FROM daily_reminders WHERE user_id = $1', [id])).rows[0]?.at ?? null;

  beforeAll(async () => {
    h = await openServicesHarness(backend);
    tg = await startFakeTelegram(botToken);
    worker = startBroadcastWorker({ db: h.db, clock: h.clock, token: botToken, apiRoot: tg.apiRoot, ratePerSecond: 1_000, concurrency: 2, leaseMs: 60_000, idlePollMs: 20, timeoutSeconds: 30 });
  });
  afterEach(async () => {
    base += 10;
    // Each test reads only its own players: the others' moments are cleared.
    await h.db.query('UPDATE daily_reminders SET remind_at_ms = NULL');
  });
  afterAll(async () => {
    await worker?.stop({ deadlineMs: 200 });
    await tg?.close();
    await h?.close();
  });

  it('reminds a player who has been away an hour that their energy is full, once, in their language', async () => {
    h.clock.set(at(base, 10, 0));
    const id = h.newUserId();
    await open(id, { language_code: 'ru' });
    expect(Number(await remindAt(id))).toBe(at(base, 11));
    expect(await runJob(at(base, 10, 30))).toMatchObject({ read: 0, queued: 0 });
    expect(await runJob(at(base, 11, 0))).toMatchObject({ read: 1, queued: 1 });
    await delivered(id, 1);
    const [message] = sentTo(id);
    expect(message!.text).toBe(catalogText('bot', 'ru', 'bot.reminder.energy'));
    expect(message!.text).toMatch(/[а-я]/);
    expect(JSON.stringify(message!.reply_markup)).toContain('https://money.example/app');
    // Nothing else is coming: the job reads no one again, and the day's count says one was queued.
    expect(await remindAt(id)).toBeNull();
    expect(await runJob(at(base, 18, 0))).toMatchObject({ read: 0 });
    expect(await runJob(at(base + 3, 12, 0))).toMatchObject({ read: 0 });
    expect(sentTo(id)).toHaveLength(1);
    const counted = await h.db.query<{ n: string }>('SELECT sum(reminders_queued)::text AS n FROM daily_counts WHERE day = $1', [base]);
    expect(counted.rows[0]!.n).toBe('1');
  });

  it('keeps the moment on the writes that make a player due sooner: the first passive card bought after a reminder', async () => {
    h.clock.set(at(base, 10, 0));
    const id = h.newUserId();
    await open(id);
    await runJob(at(base, 11, 0));
    await delivered(id, 1);
    expect(await remindAt(id)).toBeNull();
    // Back in the app within the same hour (no new status), a first passive card: income now caps 3 h later.
    h.clock.set(at(base, 11, 30));
    await setBalances(h.db, id, { totalEarn: '1000' });
    expect((await h.call('POST', '/update-level', id, { body: { levelKey: 4 } })).statusCode).toBe(200);
    // Reminded today already, and 14:30 is a quiet hour for this player: tomorrow at 9:00.
    expect(Number(await remindAt(id))).toBe(at(base + 1, 9));
    expect(await runJob(at(base + 1, 9, 0))).toMatchObject({ queued: 1 });
    await delivered(id, 2);
    expect(sentTo(id)[1]!.text).toBe(catalogText('bot', 'en', 'bot.reminder.passive', { hours: 3 }));
  });

  it('warns of a streak about to be lost the next day, in the player’s awake hours only, one reminder a day', async () => {
    h.clock.set(at(base, 10, 0));
    const id = h.newUserId();
    await open(id);
    expect((await h.call('POST', '/daily/streak', id)).statusCode).toBe(200);
    await runJob(at(base, 11, 0));
    await delivered(id, 1);
    // The next day's reminder is for 9:00, the first hour around the player's 10:00 (hours 9–11).
    expect(Number(await remindAt(id))).toBe(at(base + 1, 9));
    // Even when the job finds the row due at night (it was away), it sends nothing at 3:00 and waits.
    await h.db.query('UPDATE daily_reminders SET remind_at_ms = $2 WHERE user_id = $1', [id, at(base, 23)]);
    expect(await runJob(at(base + 1, 3, 0))).toMatchObject({ read: 1, queued: 0 });
    expect(Number(await remindAt(id))).toBe(at(base + 1, 9));
    expect(await runJob(at(base + 1, 9, 0))).toMatchObject({ read: 1, queued: 1 });
    await delivered(id, 2);
    expect(sentTo(id)[1]!.text).toBe(catalogText('bot', 'en', 'bot.reminder.streak'));
    // A claim the day after the warning: the run goes on.
    h.clock.set(at(base + 1, 9, 30));
    expect((await h.call('POST', '/daily/streak', id)).json<{ status: UserStatus }>().status.daily!.streak.days).toBe(2);
  });

  it('sends nothing to a player who turned reminders off, and again once they turn them on', async () => {
    h.clock.set(at(base, 10, 0));
    const id = h.newUserId();
    await open(id);
    const off = await h.call('POST', '/daily/reminders', id, { body: { on: false } });
    expect(off.json<UserStatus>().daily!.reminders).toBe(false);
    expect(await remindAt(id)).toBeNull();
    expect(await runJob(at(base, 12, 0))).toMatchObject({ read: 0 });
    // Opening the app later keeps them off.
    await open(id);
    h.clock.set(at(base, 14, 0));
    await open(id);
    expect(await remindAt(id)).toBeNull();
    expect((await h.call('GET', '', id)).json<UserStatus>().daily!.reminders).toBe(false);
    const on = await h.call('POST', '/daily/reminders', id, { body: { on: true } });
    expect(on.json<UserStatus>().daily!.reminders).toBe(true);
    expect(await remindAt(id)).not.toBeNull();
    expect(await runJob(at(base, 15, 0))).toMatchObject({ queued: 1 });
    await delivered(id, 1);
    // Bad input changes nothing.
    for (const body of [{}, { on: 'no' }, { on: true, extra: 1 }, { on: null }]) {
      const r = await h.call('POST', '/daily/reminders', id, { body });
      expect(r.statusCode).toBe(400);
      expect(r.json<{ field: string }>().field).toMatch(/^(on|extra)$/);
    }
    expect((await h.call('GET', '', id)).json<UserStatus>().daily!.reminders).toBe(true);
  });

  /** A player who blocked the bot: their reminder of `base` met Telegram's 403, which no run has read yet. */
  const refusedPlayer = async () => {
    h.clock.set(at(base, 10, 0));
    const id = h.newUserId();
    tg.settings.blocked.add(id);
    await open(id);
    await h.call('POST', '/daily/streak', id);
    expect(await runJob(at(base, 11, 0))).toMatchObject({ queued: 1 });
    await waitFor(async () => (await h.db.query("SELECT 1 FROM broadcast_recipients WHERE chat_id = $1 AND status = 'failed'", [id])).rows.length === 1, 'the 403');
    return id;
  };

  /** A player who blocked the bot: their reminder of `base` met Telegram's 403, and the next day's run found it. */
  const blockedPlayer = async () => {
    const id = await refusedPlayer();
    // The next day's reminder finds the 403: blocked, nothing queued, never read again.
    expect(await runJob(at(base + 1, 9, 0))).toMatchObject({ read: 1, queued: 0, blocked: 1 });
    expect(await remindAt(id)).toBeNull();
    return id;
  };

  it('never tries a player again once Telegram said they blocked the bot', async () => {
    const id = await blockedPlayer();
    h.clock.set(at(base + 2, 10, 0));
    await open(id);
    expect(await remindAt(id)).toBeNull();
    expect(await runJob(at(base + 2, 12, 0))).toMatchObject({ read: 0 });
    const attempts = await h.db.query<{ n: number }>('SELECT count(*)::int AS n FROM broadcast_recipients WHERE chat_id = $1', [id]);
    expect(attempts.rows[0]!.n).toBe(1);
    const blocked = await h.db.query<{ n: string }>('SELECT sum(reminders_blocked)::text AS n FROM daily_counts WHERE day = $1', [base + 1]);
    expect(blocked.rows[0]!.n).toBe('1');
    tg.settings.blocked.delete(id);
  });

  /** The player writes `text` in the bot's private chat, through the game's bot (its one door to the daily feature). */
  let updates = 0;
  const writeToBot = async (id: number, text: string) => {
    const bot = createGameBot({ db: h.db, config: { ...h.config, BOT_API_ROOT: tg.apiRoot }, clock: h.clock }, botToken);
    await bot.init();
    const command = text.startsWith('/') ? { entities: [{ type: 'bot_command' as const, offset: 0, length: text.length }] } : {};
    await bot.handleUpdate({
      update_id: ++updates,
      message: { message_id: updates, date: 1_760_000_000, chat: { id, type: 'private', first_name: 'P' }, from: { id, is_bot: false, first_name: 'P' }, text, ...command },
    });
  };
  /** The version of a player's reminders row: a write or a row lock (SELECT … FOR UPDATE) changes it. */
  const rowVersion = async (id: number) => (await h.db.query<{ v: string }>('SELECT xmin::text || \'/\' || xmax::text AS v FROM daily_reminders WHERE user_id = $1', [id])).rows[0]!.v;

  it('tries a player again once they write to the bot: /start clears the block and reschedules them', async () => {
    const id = await blockedPlayer();
    // They unblock the bot and send /start.
    tg.settings.blocked.delete(id);
    h.clock.set(at(base + 1, 9, 30));
    await writeToBot(id, '/start');
    const row = await h.db.query<{ blocked: string | null }>('SELECT blocked_at_ms::text AS blocked FROM daily_reminders WHERE user_id = $1', [id]);
    expect(row.rows[0]!.blocked).toBeNull();
    expect(await remindAt(id)).not.toBeNull();
    // The streak claimed yesterday is about to be lost: reminded in the player's awake hours.
    expect(await runJob(at(base + 1, 10, 0))).toMatchObject({ read: 1, queued: 1, blocked: 0 });
    await waitFor(() => sentTo(id).some((m) => m.text === catalogText('bot', 'en', 'bot.reminder.streak')), 'the streak reminder');
  });

  it('forgets a 403 the job has not read yet when the player writes to the bot, so the next run reminds them', async () => {
    const id = await refusedPlayer();
    // They unblock the bot and write before any run has read the 403.
    tg.settings.blocked.delete(id);
    h.clock.set(at(base, 18, 0));
    await writeToBot(id, 'hello');
    const row = await h.db.query<{ last: string | null }>('SELECT last_broadcast_id::text AS last FROM daily_reminders WHERE user_id = $1', [id]);
    expect(row.rows[0]!.last).toBeNull();
    expect(await runJob(at(base + 1, 10, 0))).toMatchObject({ read: 1, queued: 1, blocked: 0 });
    await waitFor(() => sentTo(id).some((m) => m.text === catalogText('bot', 'en', 'bot.reminder.streak')), 'the streak reminder');
  });

  it('writes nothing, and locks no row, when a player the bot can reach writes to it', async () => {
    h.clock.set(at(base, 10, 0));
    const reminded = h.newUserId();
    const never = h.newUserId();
    await open(reminded);
    await open(never);
    await h.db.query('UPDATE daily_reminders SET remind_at_ms = NULL WHERE user_id = $1', [never]);
    // One delivered reminder: its last_broadcast_id stays on the row, and Telegram took it.
    expect(await runJob(at(base, 11, 0))).toMatchObject({ queued: 1 });
    await delivered(reminded, 1);
    const before = [await rowVersion(reminded), await rowVersion(never)];
    const moments = [await remindAt(reminded), await remindAt(never)];
    h.clock.set(at(base, 12, 0));
    await writeToBot(reminded, 'hello');
    await writeToBot(never, '/start');
    expect([await rowVersion(reminded), await rowVersion(never)]).toEqual(before);
    expect([await remindAt(reminded), await remindAt(never)]).toEqual(moments);
  });

  it('finds who is due through the index on the due moment, then reads them by primary key: never a scan of all players', async () => {
    // Planner costs say nothing on a small table; without sequential scans the plan shows what serves each query.
    const plan = (sql: string, params: unknown[]) =>
      h.db.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        const r = await tx.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
        return r.rows.map((row) => Object.values(row)[0]).join('\n');
      });
    const due = await plan(dueRemindersSql, [at(base, 12), 500]);
    expect(due).toMatch(/(Bitmap Index Scan on|Index (Only )?Scan using) daily_reminders_due_idx/);
    expect(due).toMatch(/Index Cond: \(remind_at_ms <= /);
    expect(due).toMatch(/^Limit/);
    const players = await plan(playersByIdSql, [[1, 2, 3]]);
    expect(players).toMatch(/Index (Only )?Scan using users_pkey on users u[^\n]*\n\s+Index Cond: \(id = (d\.id|r\.user_id)\)/);
    expect(players).toMatch(/Index (Only )?Scan using daily_reminders_pkey on daily_reminders r[^\n]*\n\s+Index Cond: \(user_id = (d\.id|u\.id)\)/);
  });
});

describe('reminders with a shorter away time (REMINDERS_AWAY_MS, a staging server)', () => {
  const awayMs = 10 * 60_000;
  const shortJob = dailyRemindersJob({ everyMs, batch: 500, miniAppUrl: 'https://money.example/app', awayMs });
  let h: ServicesHarness;
  beforeAll(async () => {
    h = await openServicesHarness('pglite', { REMINDERS_AWAY_MS: String(awayMs) });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is an hour unless set, and a bad value stops the start naming the setting', () => {
    expect(loadConfig(testEnv('pglite')).REMINDERS_AWAY_MS).toBe(hour);
    expect(() => loadConfig(testEnv('pglite', { REMINDERS_AWAY_MS: '5000' }))).toThrow(/REMINDERS_AWAY_MS: must be at least 60000/);
    expect(() => loadConfig(testEnv('pglite', { REMINDERS_AWAY_MS: 'soon' }))).toThrow(/REMINDERS_AWAY_MS/);
  });

  it('queues the reminder once the player has been away that long, not an hour', async () => {
    const at = (hh: number, mm = 0) => dayStartMs(utcDayOf(Date.UTC(2027, 8, 1))) + hh * hour + mm * 60_000;
    h.clock.set(at(10));
    const id = h.newUserId();
    await h.call('GET', '', { id, first_name: 'P', username: `p${id}` });
    const remindAt = await h.db.query<{ at: string }>('SELECT remind_at_ms::text AS at FROM daily_reminders WHERE user_id = $1', [id]);
    expect(Number(remindAt.rows[0]!.at)).toBe(at(10, 10));
    const run = async (ms: number) => {
      h.clock.set(ms);
      const out = await runJobIfDue(h.db, shortJob, ms);
      if (!out.ran) throw new Error('the reminders job did not run');
      return out.result;
    };
    expect(await run(at(10, 5))).toMatchObject({ queued: 0 });
    expect(await run(at(10, 10))).toMatchObject({ read: 1, queued: 1 });
  });
});
