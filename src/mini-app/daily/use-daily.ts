import { useEffect, useState } from 'react';
import type { DailyStatus } from '../../../engine/wire/api-types.ts';
import { useStatus } from '../engine-context.tsx';

/** The player's day from the status (docs/rules.md §15), absent until the status has it. */
export const useDaily = (): DailyStatus | undefined => useStatus().data?.daily;

/**
 * Milliseconds until the next UTC day begins, on the server's clock (the status's serverTime
 * against this device's), ticking every second.
 */
export const useTimeLeft = (): number => {
  const status = useStatus().data;
  const nextDayAt = status?.daily?.nextDayAt ?? 0;
  const [offset, setOffset] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (status?.serverTime) setOffset(status.serverTime - Date.now());
  }, [status?.serverTime]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, nextDayAt - (now + offset));
};

/** hh:mm:ss, Latin digits in every language (a gauge, docs/i18n.md "Numbers"). */
export const formatCountdown = (ms: number): string => {
  const s = Math.ceil(ms / 1_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(Math.floor(s / 3_600))}:${two(Math.floor((s % 3_600) / 60))}:${two(s % 60)}`;
};
