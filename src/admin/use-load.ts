import { economy } from '../../engine/rules/economy.ts';
import { formatPlain } from '../../engine/rules/format.ts';
import { formatCount } from '../../engine/rules/i18n/format.ts';
import { useCallback, useEffect, useState } from 'react';
import { AdminApiError } from './api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/** Loads once per key change; `reload` fetches again. Every page's reads go through it. */
export const useLoad = <T>(load: () => Promise<T>, key: string): Loaded<T> => {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (err: unknown) => live && setState({ error: err instanceof AdminApiError ? err.message : String(err), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
};

export const formatTime = (ms: number | null | undefined): string =>
  ms == null ? '—' : new Date(ms).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/**
 * An amount as the mini-app writes one (engine/rules/format.ts `formatPlain`: grouping, "9,358.80"), but
 * exact: the console shows every decimal the ledger holds, at least two.
 */
export const formatAmount = (value: string): string => {
  const decimals = value.split('.')[1]?.length ?? 0;
  return formatPlain(value, Math.max(economy.defaultDecimals, decimals));
};

/** A count with the locale's grouping (engine/rules/i18n/format.ts, as the mini-app's ranks). */
export const formatNumber = (n: number): string => formatCount(consoleLocale, n);

/** "1 open review", "2 open reviews": the count, then the noun its plural category takes (Intl.PluralRules). */
export const countOf = (n: number, one: string, other: string): string =>
  `${formatNumber(n)} ${pluralRules.select(n) === 'one' ? one : other}`;

/** The console is in English (docs/admin.md). */
const consoleLocale = 'en';
const pluralRules = new Intl.PluralRules(consoleLocale);
