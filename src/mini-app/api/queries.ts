import { createContext, useContext } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { TaskType } from '../../../engine/api-types.ts';
import type { ApiClient } from './client.ts';
import { getFriends, getLeaderboard, getRefLink, getTasks } from './calls.ts';

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
