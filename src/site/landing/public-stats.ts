import { useEffect, useState } from 'react';
import { economy } from '../../../engine/rules/economy.ts';
import type { PublicStats } from '../../../engine/wire/api-types.ts';
import { config } from '../../config.ts';
import { retryLoad } from '../../retry-load.ts';

/** §8: the one stats failure message; it is only logged, never shown. */
export const statsFailure = 'Network response was not ok';

const isPublicStats = (v: unknown): v is PublicStats => {
  const s = v as Partial<PublicStats> | null;
  return typeof s?.totalClick === 'number' && typeof s.totalPaticipant === 'number' &&
    (typeof s.totalEarn === 'string' || typeof s.totalEarn === 'number');
};

/** GET {apiBase}/public/stats; a non-ok status or an unreadable body is the §8 stats failure. */
export const fetchPublicStats = async (apiBase: string = config.apiBase): Promise<PublicStats> => {
  const response = await fetch(`${apiBase}/public/stats`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(statsFailure);
  const body: unknown = await response.json().catch(() => null);
  if (!isPublicStats(body)) throw new Error(statsFailure);
  return body;
};

/** formatCompact's shape; engine/rules/format.ts is loaded on demand (see loadFormat). */
export type FormatCompact = (value: string | number) => string;

// engine/rules/format.ts brings decimal.js, a tenth of the landing page's JS, and the tiles need it only
// once numbers arrive: load it alongside the first fetch, off the first render's path.
let formatModule: Promise<FormatCompact> | undefined;
const loadFormat = (): Promise<FormatCompact> =>
  (formatModule ??= retryLoad(() => import('../../../engine/rules/format.ts')).then(
    (m) => m.formatCompact,
    (error: unknown) => {
      console.error(error);
      formatModule = undefined;
      return String;
    },
  ));

export interface StatsState {
  /** The last stats that arrived, or null before the first success. */
  stats: PublicStats | null;
  /** True until the first answer (success or failure): the tiles show skeletons. */
  isLoading: boolean;
  /** The compact formatter, once loaded. */
  format: FormatCompact;
}

/**
 * §4 landing stats: load once, refetch every hour, and on failure log and keep what we had.
 * A 30-line hook instead of @tanstack/react-query: it saves 12 kB gzip on the landing page and
 * we need none of its cache (docs/decisions/site.md).
 */
export const usePublicStats = (refreshMs: number = economy.statsRefreshMs): StatsState => {
  const [state, setState] = useState<StatsState>({ stats: null, isLoading: true, format: String });
  useEffect(() => {
    let alive = true;
    const load = (): void => {
      const answer = fetchPublicStats().catch((error: unknown) => {
        console.error(error);
        return null;
      });
      void Promise.all([answer, loadFormat()]).then(([stats, format]) => {
        if (alive) setState((s) => ({ stats: stats ?? s.stats, isLoading: false, format }));
      });
    };
    load();
    const timer = setInterval(load, refreshMs);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [refreshMs]);
  return state;
};
