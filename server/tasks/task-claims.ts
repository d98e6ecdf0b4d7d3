import type { Task } from '../../engine/wire/api-types.ts';
import { economy } from '../../engine/rules/economy.ts';
import type { VerifiedInitData } from '../players/exports.ts';
import type { Db, Queryable } from '../core/db/db.ts';
import { transaction } from '../core/db/transaction.ts';
import { pokeChannelCheck } from '../referrals/exports.ts';
import { refuse } from '../core/errors.ts';
import { creditMoney } from '../players/exports.ts';
import type { ClaimInput, OutsideEvidence } from './task-evidence.ts';
export { verifyOutside, type ClaimInput, type OutsideEvidence } from './task-evidence.ts';
import { progressOf, recordTaskProgress, taskView, type Progress, type TaskRow } from './tasks.ts';
import { loadUser, type UserRow } from '../players/exports.ts';

/** §4/§5: the rule a task's claim must pass, on the locked row; throws the spec's message when it fails. */
const checkRule = (task: TaskRow, row: UserRow, initData: VerifiedInitData, before: Progress, evidence: OutsideEvidence): void => {
  if (task.type === 'ADS') throw refuse('adsClaimedByWatching', { field: 'task_id' });
  if (task.type === 'ACHIVEMENT' && row.total_click < Number(task.link)) throw refuse('achievementLocked', { field: 'task_id' });
  switch (task.handle_type) {
    case 'REF':
      if (row.invite_cnt < Number(task.link)) throw refuse('inviteMoreFriends', { field: 'task_id' });
      break;
    case 'CHECK_USERNAME': {
      const u = initData.user;
      const name = [u.first_name, u.last_name, u.username].filter(Boolean).join(' ');
      if (!name.includes('$MONEY')) throw refuse('usernameLacksMoney', { field: 'task_id' });
      break;
    }
    case 'BOOST':
      if ((evidence.boosts ?? 0) <= before.numberOfDone) throw refuse('notEnoughBoosts', { field: 'task_id' });
      break;
    default:
      break;
  }
};

/**
 * /claim-task: checks the task's rule on the locked row, counts the completion (once, or once a
 * day for daily tasks; boost tasks count up to 10) and credits the reward with the referrer's 5 %,
 * in one transaction; then makes the player's invite rule due for its channel check.
 */
export const claimTask = async (
  db: Db,
  task: TaskRow,
  userId: number,
  initData: VerifiedInitData,
  input: ClaimInput,
  evidence: OutsideEvidence,
  nowMs: number,
): Promise<{ reward: string; task: Task; row: UserRow }> => {
  const claimed = await transaction(db, async (tx) => {
    const row = await loadUser(tx, userId, true);
    const before = await progressOf(tx, userId, task, nowMs);
    if (before.hasDone) throw refuse('taskAlreadyClaimed', { field: 'task_id' });
    checkRule(task, row, initData, before, evidence);
    if (evidence.boosts !== undefined) await tx.query('UPDATE users SET boost_channel_cnt = $2 WHERE id = $1', [userId, evidence.boosts]);
    const exchange = task.handle_type === 'CHECK_ONUS' || task.handle_type === 'CHECK_BINGX';
    let progress: Progress | null;
    try {
      progress = await recordTaskProgress(tx, userId, task, nowMs, {
        target: task.handle_type === 'BOOST' ? economy.boostTaskTarget : 1,
        ...(exchange && input.inputValue !== undefined ? { inputValue: input.inputValue.trim() } : {}),
      });
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw refuse('exchangeAccountTaken', { field: 'inputValue', cause: err });
      throw err;
    }
    if (progress === null) throw refuse('taskAlreadyClaimed', { field: 'task_id' });
    const reward = await creditMoney(tx, { userId, amount: task.reward, kind: 'task', reference: `task:${task.id}:${progress.numberOfDone}`, nowMs });
    // docs/airdrop.md "Bought boosts": an achievement the player's own taps had not reached is MONEY
    // earned through bought taps; the snapshot leaves it out unless the operator counts it.
    if (task.type === 'ACHIVEMENT' && row.total_click - Number(row.bought_clicks ?? 0) < Number(task.link))
      await tx.query('UPDATE users SET bought_money = bought_money + $2::numeric WHERE id = $1', [userId, reward]);
    return { reward, task: taskView(task, progress), row: await loadUser(tx, userId) };
  });
  // The friend acted (often right after joining the channel): their invite rule is checked next.
  await pokeChannelCheck(db, userId, nowMs);
  return claimed;
};

/** /check-task (BOOST): records the player's channel boosts as Telegram counted them. */
export const recordChannelBoosts = async (q: Queryable, userId: number, boosts: number): Promise<void> => {
  await q.query('UPDATE users SET boost_channel_cnt = $2 WHERE id = $1', [userId, boosts]);
};

/** The player's channel boosts as last recorded (0 for none). */
export const channelBoostsOf = async (q: Queryable, userId: number): Promise<number> => {
  const r = await q.query<{ boost_channel_cnt: number }>('SELECT boost_channel_cnt FROM users WHERE id = $1', [userId]);
  return r.rows[0]?.boost_channel_cnt ?? 0;
};
