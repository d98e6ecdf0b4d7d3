/**
 * The task model without storage: the seed file's schema (server/tasks/seed-tasks.json), the stored row,
 * the §3 Task a row shows as, and the list types of §2's sub-tabs. Pure (no Node APIs), so the
 * browser tests' fake API derives its tasks from the same seed through the same code.
 */
import { z } from 'zod';
import type { Task, TaskHandleType, TaskType } from '../../engine/wire/api-types.ts';
import { toWire } from '../../engine/rules/money.ts';

const taskTypes = ['TASK1', 'SOCIAL', 'INVITE', 'EXCHANGE', 'ACHIVEMENT', 'ADS', 'DAILY_TASK', 'INVITE_TASK'] as const satisfies readonly TaskType[];
const handleTypes = ['BOOST', 'REF', 'CHECK_USERNAME', 'CHECK_ONUS', 'CHECK_BINGX'] as const satisfies readonly TaskHandleType[];

export const taskFileSchema = z.object({
  tasks: z.array(
    z.object({
      id: z.number().int().positive(),
      type: z.enum(taskTypes),
      handleType: z.enum(handleTypes).nullable().default(null),
      title: z.string().min(1),
      titles: z.record(z.string(), z.string()).default({}),
      image: z.string().default(''),
      desc: z.string().default(''),
      link: z.string().default(''),
      reward: z.string().regex(/^[0-9]+(\.[0-9]{1,2})?$/),
      isDaily: z.boolean().default(false),
      needsCaptcha: z.boolean().default(false),
      active: z.boolean().default(true),
    }),
  ),
});

export interface TaskRow {
  id: number;
  type: TaskType;
  handle_type: TaskHandleType | null;
  title: string;
  /** The title in other languages (JSONB; PGlite and pg both give an object). */
  titles: Record<string, string>;
  image: string;
  description: string;
  link: string;
  reward: string;
  is_daily: boolean;
  needs_captcha: boolean;
}

export interface Progress {
  numberOfDone: number;
  hasDone: boolean;
}

/** The stored row of one seed entry (what seedTasks writes). */
export const rowOfSeed = (t: z.output<typeof taskFileSchema>['tasks'][number]): TaskRow => ({
  id: t.id,
  type: t.type,
  handle_type: t.handleType,
  title: t.title,
  titles: t.titles,
  image: t.image,
  description: t.desc,
  link: t.link,
  reward: t.reward,
  is_daily: t.isDaily,
  needs_captcha: t.needsCaptcha,
});

/** Query types the mini-app's sub-tabs use (§2) mapped to stored task types. */
const typeAliases: Record<string, readonly TaskType[]> = {
  DAILY_TASK: ['SOCIAL', 'ADS', 'TASK1'],
  INVITE_TASK: ['INVITE'],
};

export const taskTypeValues = taskTypes;

/** The stored types a list type covers (§2: Social lists DAILY_TASK, Invite lists INVITE_TASK). */
export const taskTypesOf = (type: TaskType): readonly TaskType[] => typeAliases[type] ?? [type];

/** The §3 Task of a row with a player's progress. */
export const taskView = (t: TaskRow, p: Progress): Task => ({
  id: t.id,
  type: t.type,
  handleType: t.handle_type,
  title: t.title,
  titles: t.titles,
  image: t.image,
  desc: t.description,
  link: t.link,
  reward: toWire(t.reward),
  isDaily: t.is_daily,
  hasDone: p.hasDone,
  numberOfDone: p.numberOfDone,
  needsCaptcha: t.needs_captcha,
});

