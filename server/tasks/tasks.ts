import { readFileSync } from 'node:fs';
import type { Task, TaskType } from '../../engine/wire/api-types.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { refuse } from '../core/errors.ts';
import { taskFileSchema, taskTypesOf, taskView, type Progress, type TaskRow } from './task-model.ts';

export { taskTypeValues, taskView, type Progress, type TaskRow } from './task-model.ts';

export const tasksFile = new URL('./seed-tasks.json', import.meta.url);

/** Upserts the tasks of the data file by id (in file order), so edits apply at the next start (except tasks edited in the console). */
export const seedTasks = async (db: Db, file: URL = tasksFile): Promise<number> => {
  const { tasks } = taskFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  if (tasks.length === 0) return 0;
  await db.query(
    `INSERT INTO tasks (id, type, handle_type, title, image, description, link, reward, is_daily, needs_captcha, sort_order, active, titles)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::numeric[], $9::bool[], $10::bool[], $11::int[], $12::bool[], $13::jsonb[])
     ON CONFLICT (id) DO UPDATE SET type = EXCLUDED.type, handle_type = EXCLUDED.handle_type, title = EXCLUDED.title, titles = EXCLUDED.titles,
       image = EXCLUDED.image, description = EXCLUDED.description, link = EXCLUDED.link, reward = EXCLUDED.reward,
       is_daily = EXCLUDED.is_daily, needs_captcha = EXCLUDED.needs_captcha, sort_order = EXCLUDED.sort_order, active = EXCLUDED.active
     -- A task edited in the operator console keeps its edit (docs/admin.md).
     WHERE tasks.edited_at_ms IS NULL`,
    [
      tasks.map((t) => t.id), tasks.map((t) => t.type), tasks.map((t) => t.handleType), tasks.map((t) => t.title),
      tasks.map((t) => t.image), tasks.map((t) => t.desc), tasks.map((t) => t.link), tasks.map((t) => t.reward),
      tasks.map((t) => t.isDaily), tasks.map((t) => t.needsCaptcha), tasks.map((_, i) => i), tasks.map((t) => t.active),
      tasks.map((t) => JSON.stringify(t.titles)),
    ],
  );
  return tasks.length;
};


/** The completion period of a task at nowMs: 'once', or the UTC date for daily tasks (they reset at 00:00 UTC). */
export const periodOf = (task: Pick<TaskRow, 'is_daily'>, nowMs: number): string =>
  task.is_daily ? new Date(nowMs).toISOString().slice(0, 10) : 'once';

/** An active task by id; refuses `taskNotFound` naming `field`, the input that carried the id. */
export const loadTask = async (q: Queryable, taskId: number, field = 'task_id'): Promise<TaskRow> => {
  const r = await q.query<TaskRow>('SELECT * FROM tasks WHERE id = $1 AND active', [taskId]);
  const t = r.rows[0];
  if (t === undefined) throw refuse('taskNotFound', { field, values: { taskId } });
  return t;
};


export const progressOf = async (q: Queryable, userId: number, task: TaskRow, nowMs: number): Promise<Progress> => {
  const r = await q.query<{ number_of_done: number; has_done: boolean }>(
    'SELECT number_of_done, has_done FROM task_completions WHERE user_id = $1 AND task_id = $2 AND period = $3',
    [userId, task.id, periodOf(task, nowMs)],
  );
  const row = r.rows[0];
  return { numberOfDone: row?.number_of_done ?? 0, hasDone: row?.has_done ?? false };
};

/**
 * Counts one completion of a task in its current period, atomically: numberOfDone + 1, done when
 * it reaches `target` (1 for one-off tasks, 10 for boost and ads). Returns null, changing
 * nothing, when the task is already done this period. inputValue (an exchange account id) may
 * be used by one player only: a clash throws a 409.
 */
export const recordTaskProgress = async (
  tx: Queryable,
  userId: number,
  task: TaskRow,
  nowMs: number,
  opts: { target?: number; inputValue?: string } = {},
): Promise<Progress | null> => {
  const target = opts.target ?? 1;
  const r = await tx.query<{ number_of_done: number; has_done: boolean }>(
    `INSERT INTO task_completions AS c (user_id, task_id, period, number_of_done, has_done, input_value, updated_at_ms)
     VALUES ($1, $2, $3, 1, 1 >= $4, $5, $6)
     ON CONFLICT (user_id, task_id, period) DO UPDATE
       SET number_of_done = c.number_of_done + 1, has_done = c.number_of_done + 1 >= $4,
           input_value = COALESCE(EXCLUDED.input_value, c.input_value), updated_at_ms = $6
       WHERE NOT c.has_done
     RETURNING number_of_done, has_done`,
    [userId, task.id, periodOf(task, nowMs), target, opts.inputValue ?? null, nowMs],
  );
  const row = r.rows[0];
  return row === undefined ? null : { numberOfDone: row.number_of_done, hasDone: row.has_done };
};

/** The tasks of a type with the player's progress in the current period (§3 Task). */
export const listTasks = async (q: Queryable, userId: number, type: TaskType, nowMs: number): Promise<Task[]> => {
  const types = taskTypesOf(type);
  const today = new Date(nowMs).toISOString().slice(0, 10);
  const r = await q.query<TaskRow & { number_of_done: number | null; has_done: boolean | null }>(
    `SELECT t.*, c.number_of_done, c.has_done FROM tasks t
     LEFT JOIN task_completions c ON c.task_id = t.id AND c.user_id = $1
       AND c.period = CASE WHEN t.is_daily THEN $3 ELSE 'once' END
     WHERE t.active AND t.type = ANY($2::text[])
     ORDER BY t.sort_order, t.id`,
    [userId, types, today],
  );
  return r.rows.map((t) => taskView(t, { hasDone: t.has_done ?? false, numberOfDone: t.number_of_done ?? 0 }));
};
