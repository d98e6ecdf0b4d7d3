import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { haptic } from '../telegram.ts';
import { keys } from './api/queries.ts';
import { useEngine } from './engine-context.tsx';
import { messages, notify } from './messages.ts';

/**
 * The one place that reloads what a claim changed: the status, through the engine that owns it
 * (one status request), and the task lists (docs/architecture.md). Every claim of the mini-app
 * ends here.
 */
export const useRefreshAfterClaim = (): (() => Promise<void>) => {
  const engine = useEngine();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    void queryClient.invalidateQueries({ queryKey: keys.allTasks });
    await Promise.resolve(engine.refresh()).catch(() => undefined);
  }, [engine, queryClient]);
};

export interface ClaimToasts {
  /** The §8 toast on success; "Claimed successful" unless given. */
  success?: string;
  /** The §8 toast on failure; "Something went wrong, please try again later!" unless given. */
  failure?: string;
  /** False for a claim the engine made itself (it reconciles with the status the claim answers). */
  refresh?: boolean;
}

/**
 * Claim-then-toast (§8): runs a claim, reloads what it changed, and shows the success or the
 * failure toast with its haptic. `busy` is true while a claim runs; `run` resolves true on success.
 */
export const useClaim = () => {
  const refreshAfterClaim = useRefreshAfterClaim();
  const [busy, setBusy] = useState(false);
  const run = async (claim: () => Promise<unknown>, toasts: ClaimToasts = {}): Promise<boolean> => {
    setBusy(true);
    try {
      await claim();
    } catch {
      haptic.error();
      notify(toasts.failure ?? messages.somethingWrong, 'error');
      setBusy(false);
      return false;
    }
    haptic.success();
    notify(toasts.success ?? messages.claimedSuccessful, 'success');
    if (toasts.refresh !== false) await refreshAfterClaim();
    setBusy(false);
    return true;
  };
  return { busy, run };
};
