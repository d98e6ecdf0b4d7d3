import { createContext, useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TaskType } from '../../../engine/wire/api-types.ts';
import type { ApiClient } from './client.ts';
import { supports } from '../../telegram.ts';
import { getFriends, getLeaderboard, getRefLink, getTasks, prepareInvite } from './calls.ts';

export const ApiContext = createContext<ApiClient | null>(null);

/** The API client of the running app (the real one, or a test's fake-backed one). */
export const useApi = (): ApiClient => {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiContext.Provider>');
  return api;
};

/**
 * Query keys in one place, so a claim can invalidate exactly what it changed. The player's status
 * is not here: the engine owns it (useStatus in engine-context.tsx, docs/architecture.md).
 */
export const keys = {
  /** Every task list (the prefix of each `tasks(type)`). */
  allTasks: ['tasks'] as const,
  tasks: (type: TaskType) => ['tasks', type] as const,
  friends: (page: number) => ['friends', page] as const,
  leaderboard: (page: number) => ['leaderboard', page] as const,
  refLink: ['refLink'] as const,
  preparedInvite: ['preparedInvite'] as const,
  /** The Stars shop's items and today's limits (docs/shop.md). */
  shop: ['shop'] as const,
};

export const useTasks = (type: TaskType, enabled = true) => {
  const api = useApi();
  return useQuery({ queryKey: keys.tasks(type), queryFn: () => getTasks(api, type), enabled });
};

export const useFriends = (page: number) => {
  const api = useApi();
  return useQuery({ queryKey: keys.friends(page), queryFn: () => getFriends(api, page), placeholderData: (prev) => prev });
};

export const useLeaderboard = (page: number) => {
  const api = useApi();
  return useQuery({ queryKey: keys.leaderboard(page), queryFn: () => getLeaderboard(api, page), placeholderData: (prev) => prev });
};

export const useRefLink = () => {
  const api = useApi();
  return useQuery({ queryKey: keys.refLink, queryFn: () => getRefLink(api), staleTime: Infinity });
};

/** A prepared message lives a day at Telegram; an hour is plenty for one visit of Invite. */
const preparedInviteFreshMs = 3_600_000;

/**
 * The invite prepared as a rich message, asked for when Invite opens on a client that can share
 * it (8.0), so the button shares at once. Kept until shortly before Telegram lets it expire; a
 * failure is not retried: the button then shares the t.me link.
 */
export const usePreparedInvite = () => {
  const api = useApi();
  const query = useQuery({
    queryKey: keys.preparedInvite,
    queryFn: () => prepareInvite(api),
    enabled: supports('preparedMessage'),
    retry: false,
    staleTime: preparedInviteFreshMs,
    gcTime: preparedInviteFreshMs,
  });
  const usable = query.data !== undefined && query.data.expirationDate * 1000 > Date.now() + 60_000;
  return { ...query, data: usable ? query.data : undefined };
};
