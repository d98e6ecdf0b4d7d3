import type { Task } from '../../../engine/wire/api-types.ts';
import { economy } from '../../../engine/rules/economy.ts';

/** §4 external-link tasks: the ids whose link was opened, remembered under `earn_task`. */
export const earnTaskKey = 'earn_task';

export const openedTasks = (): number[] => {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(earnTaskKey) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((n): n is number => typeof n === 'number') : [];
  } catch {
    return [];
  }
};

export const rememberOpened = (taskId: number): void => {
  const ids = openedTasks();
  if (!ids.includes(taskId)) localStorage.setItem(earnTaskKey, JSON.stringify([...ids, taskId]));
};

/** The task's title in the language shown, else its English one (docs/admin.md "Tasks"). */
export const taskTitleIn = (task: Pick<Task, 'title' | 'titles'>, locale: string): string => task.titles[locale] || task.title;

export const isUrl = (link: string): boolean => /^https?:\/\//.test(link);

/** Tasks with a URL and no server-side check: open first, claim on the next press (§4). */
export const isExternalLinkTask = (task: Task): boolean =>
  isUrl(task.link) && (task.handleType === null || task.handleType === 'CHECK_USERNAME');

export const isExchangeTask = (task: Task): boolean => task.handleType === 'CHECK_ONUS' || task.handleType === 'CHECK_BINGX';

/** §5: a REF task is satisfied when inviteCnt reaches the numeric link. */
export const refSatisfied = (task: Task, inviteCnt: number): boolean => inviteCnt >= Number(task.link);

/** §4: an achievement is locked while its threshold is above totalClick, then unlocked, then claimed. */
export type AchievementState = 'locked' | 'unlocked' | 'claimed';
export const achievementState = (task: Task, totalClick: number): AchievementState =>
  task.hasDone ? 'claimed' : Number(task.link) > totalClick ? 'locked' : 'unlocked';

/** §4: the ads row moves after the other tasks once it is done 10 times today. */
export const adsDone = (task: Task): boolean => task.numberOfDone >= economy.adsPerDay;

/** The §8 failure message of a task claim. */
export const claimFailureMessage = (task: Task, m: { usernameClaimFailed: string; boostClaimFailed: string; taskClaimFailed: string }) =>
  task.handleType === 'CHECK_USERNAME' ? m.usernameClaimFailed : task.handleType === 'BOOST' ? m.boostClaimFailed : m.taskClaimFailed;
