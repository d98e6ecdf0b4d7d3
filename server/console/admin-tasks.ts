/**
 * Task editing in the console (docs/admin.md "Tasks"): every field of §3's Task, checked field by
 * field (all problems at once), written with its audit row. The mini-app reads tasks from the
 * table on every /tasks call, so players see a change at their next list (well within a minute).
 * An edited task is marked, and the seed file no longer overwrites it at start.
 */
import type { TaskRow } from '../tasks/exports.ts';
import type { AdminTask, TaskInput } from '../../engine/wire/admin-types.ts';
import type { TaskHandleType, TaskType } from '../../engine/wire/api-types.ts';
import { locales } from '../../engine/rules/i18n/locales.ts';
import { toWire } from '../../engine/rules/money.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { refuse, type Refusal } from '../core/errors.ts';
import { recordAudit, type Actor } from '../audit/exports.ts';
import { transaction } from '../core/db/transaction.ts';

/** The stored task types (DAILY_TASK and INVITE_TASK are query aliases, server/tasks/tasks.ts). */
export const editableTaskTypes = ['TASK1', 'SOCIAL', 'INVITE', 'EXCHANGE', 'ACHIVEMENT', 'ADS'] as const satisfies readonly TaskType[];
export const editableHandleTypes = ['BOOST', 'REF', 'CHECK_USERNAME', 'CHECK_ONUS', 'CHECK_BINGX'] as const satisfies readonly TaskHandleType[];
/** Types whose link is a numeric threshold (§3): friends, views a day, total clicks. */
const thresholdTypes: ReadonlySet<string> = new Set(['INVITE', 'ADS', 'ACHIVEMENT']);

/** An invalid task form: the first bad field in `field` and the message, every one in the body's `fields`. */
const formRefusal = (fields: Record<string, string>): Refusal => {
  const [field, problem] = Object.entries(fields)[0]!;
  return refuse('taskFormInvalid', { field, values: { problem }, fields });
};

const isUrl = (s: string) => {
  try {
    return ['https:', 'http:', 'tg:'].includes(new URL(s).protocol);
  } catch {
    return false;
  }
};

const titleMaxChars = 100;
/** The languages a task may have a title of its own in: English is `title`, which the others fall back to. */
const otherLocales: readonly string[] = locales.filter((l) => l !== 'en');

/**
 * A task's titles in other languages (docs/admin.md "Tasks"): each optional, a blank one dropped
 * (that language shows the English title); an unknown language or a long title is named by its field.
 */
const parseTitles = (raw: unknown, errors: Record<string, string>): Record<string, string> => {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    errors.titles = `must be an object of titles by language (${otherLocales.join(', ')})`;
    return {};
  }
  const titles: Record<string, string> = {};
  for (const [locale, value] of Object.entries(raw)) {
    if (!otherLocales.includes(locale)) errors.titles = `unknown language ${locale}: titles are for ${otherLocales.join(', ')} (English is the title)`;
    else if (typeof value !== 'string') errors[`titles.${locale}`] = 'must be text';
    else if (value.trim().length > titleMaxChars) errors[`titles.${locale}`] = `must be at most ${titleMaxChars} characters`;
    else if (value.trim() !== '') titles[locale] = value.trim();
  }
  return titles;
};

/** Checks a task form; refuses naming each bad field. */
export const parseTaskInput = (raw: unknown): TaskInput => {
  const b = (raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const errors: Record<string, string> = {};
  const str = (k: string) => (typeof b[k] === 'string' ? (b[k] as string).trim() : undefined);
  const type = str('type');
  if (!editableTaskTypes.includes(type as (typeof editableTaskTypes)[number])) errors.type = `must be one of ${editableTaskTypes.join(', ')}`;
  const handleType = b.handleType === null || b.handleType === '' || b.handleType === undefined ? null : str('handleType');
  if (handleType !== null && !editableHandleTypes.includes(handleType as TaskHandleType)) errors.handleType = `must be empty or one of ${editableHandleTypes.join(', ')}`;
  if (type === 'EXCHANGE' && handleType !== 'CHECK_ONUS' && handleType !== 'CHECK_BINGX') errors.handleType = 'an EXCHANGE task needs CHECK_ONUS or CHECK_BINGX';
  if (type === 'INVITE' && handleType !== 'REF') errors.handleType = 'an INVITE task needs REF';
  const title = str('title') ?? '';
  if (title === '' || title.length > titleMaxChars) errors.title = `must be 1–${titleMaxChars} characters`;
  const titles = parseTitles(b.titles, errors);
  const image = str('image') ?? '';
  if (image !== '' && !/^[a-z0-9-]{1,64}$/.test(image) && !(image.startsWith('https://') && isUrl(image))) errors.image = 'must be an art name (task-x) or an https URL';
  const desc = str('desc') ?? '';
  if (desc.length > 500) errors.desc = 'must be at most 500 characters';
  const link = str('link') ?? '';
  if (type !== undefined && thresholdTypes.has(type)) {
    if (!/^[1-9]\d{0,9}$/.test(link)) errors.link = `a ${type} task's link is its threshold: a whole number above 0`;
  } else if (link !== '' && !isUrl(link)) errors.link = 'must be an https, http or tg URL';
  const reward = typeof b.reward === 'number' ? String(b.reward) : (str('reward') ?? '');
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(reward)) errors.reward = 'must be an amount of MONEY ≥ 0 with at most 2 decimals';
  const flag = (k: string, def: boolean) => {
    if (b[k] === undefined) return def;
    if (typeof b[k] !== 'boolean') errors[k] = 'must be true or false';
    return b[k] === true;
  };
  const isDaily = flag('isDaily', false);
  const needsCaptcha = flag('needsCaptcha', false);
  const active = flag('active', true);
  if (Object.keys(errors).length > 0) throw formRefusal(errors);
  return { type: type as TaskType, handleType: handleType as TaskHandleType | null, title, titles, image, desc, link, reward: toWire(reward), isDaily, needsCaptcha, active };
};

/** The tasks row as the console reads it: the players' columns, and what only the console edits. */
interface Row extends TaskRow {
  active: boolean;
  sort_order: number;
}

const taskOf = (r: Row): AdminTask => ({
  id: r.id,
  type: r.type,
  handleType: r.handle_type,
  title: r.title,
  titles: r.titles,
  image: r.image,
  desc: r.description,
  link: r.link,
  reward: toWire(r.reward),
  isDaily: r.is_daily,
  needsCaptcha: r.needs_captcha,
  active: r.active,
  sortOrder: r.sort_order,
});

export const listAdminTasks = async (q: Queryable): Promise<AdminTask[]> =>
  (await q.query<Row>('SELECT * FROM tasks ORDER BY sort_order, id')).rows.map(taskOf);

const loadForUpdate = async (q: Queryable, id: number): Promise<AdminTask> => {
  const r = await q.query<Row>('SELECT * FROM tasks WHERE id = $1 FOR UPDATE', [id]);
  if (r.rows[0] === undefined) throw refuse('taskNotFound', { field: 'id', values: { taskId: id } });
  return taskOf(r.rows[0]);
};

const values = (t: TaskInput) => [t.type, t.handleType, t.title, t.image, t.desc, t.link, t.reward, t.isDaily, t.needsCaptcha, t.active, JSON.stringify(t.titles)];

export const createTask = (db: Db, actor: Actor, input: TaskInput, nowMs: number): Promise<AdminTask> =>
  transaction(db, async (tx) => {
    // Tasks are few and created by hand: the next id and the last place are read under a table lock.
    await tx.query('LOCK TABLE tasks IN SHARE ROW EXCLUSIVE MODE');
    const r = await tx.query<Row>(
      `INSERT INTO tasks (id, type, handle_type, title, image, description, link, reward, is_daily, needs_captcha, active, titles, sort_order, edited_at_ms)
       SELECT COALESCE(max(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7::numeric, $8, $9, $10, $11::jsonb, COALESCE(max(sort_order), 0) + 1, $12 FROM tasks
       RETURNING *`,
      [...values(input), nowMs],
    );
    const task = taskOf(r.rows[0]!);
    await recordAudit(tx, { actor, action: 'task.create', target: `task:${task.id}`, after: task, nowMs });
    return task;
  });

export const updateTask = (db: Db, actor: Actor, id: number, input: TaskInput, nowMs: number): Promise<AdminTask> =>
  transaction(db, async (tx) => {
    const before = await loadForUpdate(tx, id);
    const r = await tx.query<Row>(
      `UPDATE tasks SET type = $2, handle_type = $3, title = $4, image = $5, description = $6, link = $7, reward = $8::numeric,
              is_daily = $9, needs_captcha = $10, active = $11, titles = $12::jsonb, edited_at_ms = $13
        WHERE id = $1 RETURNING *`,
      [id, ...values(input), nowMs],
    );
    const after = taskOf(r.rows[0]!);
    await recordAudit(tx, { actor, action: input.active || !before.active ? 'task.update' : 'task.disable', target: `task:${id}`, before, after, nowMs });
    return after;
  });

/** Puts the listed tasks first, in this order; the others keep their order after them. */
export const reorderTasks = (db: Db, actor: Actor, ids: number[], nowMs: number): Promise<AdminTask[]> =>
  transaction(db, async (tx) => {
    const before = (await tx.query<{ id: number }>('SELECT id FROM tasks ORDER BY sort_order, id FOR UPDATE')).rows.map((r) => Number(r.id));
    const unknown = ids.filter((id) => !before.includes(id));
    if (unknown.length > 0) throw formRefusal({ ids: `unknown task ids: ${unknown.join(', ')}` });
    const order = [...new Set(ids), ...before.filter((id) => !ids.includes(id))];
    await tx.query(
      'UPDATE tasks t SET sort_order = o.ord, edited_at_ms = $2 FROM unnest($1::int[]) WITH ORDINALITY AS o(id, ord) WHERE t.id = o.id',
      [order, nowMs],
    );
    await recordAudit(tx, { actor, action: 'task.reorder', target: 'tasks', before, after: order, nowMs });
    return listAdminTasks(tx);
  });
