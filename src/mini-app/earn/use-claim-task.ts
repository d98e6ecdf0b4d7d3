import { useQueryClient } from '@tanstack/react-query';
import type { ClaimTaskPayload, Task } from '../../../engine/api-types.ts';
import { haptic } from '../../telegram.ts';
import { claimTask } from '../api/calls.ts';
import { keys, useApi } from '../api/queries.ts';
import { useEngine } from '../engine-context.tsx';
import { messages, notify } from '../messages.ts';
import { claimFailureMessage } from './task-rules.ts';

/**
 * Claims a task and shows the §8 outcome; on success the task list, the status and the engine's
 * balances are reloaded. Resolves true on success.
 */
export const useClaimTask = () => {
  const api = useApi();
  const engine = useEngine();
  const queryClient = useQueryClient();
  return async (task: Task, body: Partial<ClaimTaskPayload> = {}, achievement = false): Promise<boolean> => {
    try {
      await claimTask(api, task.id, { taskId: task.id, ...body });
      haptic.success();
      notify(achievement ? messages.achievementClaimSuccess : messages.taskClaimSuccess, 'success');
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      void queryClient.invalidateQueries({ queryKey: keys.status });
      void Promise.resolve(engine.refresh()).catch(() => undefined);
      return true;
    } catch {
      haptic.error();
      notify(achievement ? messages.somethingWrong : claimFailureMessage(task, messages), 'error');
      return false;
    }
  };
};
