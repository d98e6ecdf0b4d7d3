import type { ClaimTaskPayload, Task } from '../../../engine/wire/api-types.ts';
import { claimTask } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { messages } from '../messages.ts';
import { useClaim } from '../use-claim.ts';
import { claimFailureMessage } from './task-rules.ts';

/**
 * Claims a task and shows the §8 outcome; on success the task lists and the status are reloaded
 * (useClaim). Resolves true on success.
 */
export const useClaimTask = () => {
  const api = useApi();
  const { run } = useClaim();
  return (task: Task, body: Partial<ClaimTaskPayload> = {}, achievement = false): Promise<boolean> =>
    run(() => claimTask(api, task.id, { taskId: task.id, ...body }), {
      success: achievement ? messages.achievementClaimSuccess : messages.taskClaimSuccess,
      failure: achievement ? messages.somethingWrong : claimFailureMessage(task, messages),
    });
};
