import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { streakLadderLength } from '../../../engine/rules/daily.ts';
import { economy } from '../../../engine/rules/economy.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { haptic } from '../../telegram.ts';
import { claimDailyStreak } from '../api/calls.ts';
import { ResponseError } from '../api/client.ts';
import { useApi } from '../api/queries.ts';
import { appLocale } from '../locale.ts';
import { messages, notify } from '../messages.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { formatCountdown, useDaily, useTimeLeft } from './use-daily.ts';

type DayState = 'claimed' | 'today' | 'next';

/** The state of each calendar step for a player on `step` today (claimed or not). */
const stepStates = (step: number, claimedToday: boolean): DayState[] =>
  Array.from({ length: streakLadderLength }, (_, i) => {
    const n = i + 1;
    if (n < step || (n === step && claimedToday)) return 'claimed';
    return n === step ? 'today' : 'next';
  });

/**
 * The streak's calendar sheet (docs/rules.md §15.1): ten rising days, where the player stands,
 * and today's claim. After the claim it counts down to the next UTC day.
 */
export const StreakSheet = ({ onClose }: { onClose: () => void }) => {
  const { _ } = useLingui();
  const api = useApi();
  const daily = useDaily();
  const refresh = useRefreshAfterClaim();
  const left = useTimeLeft();
  const [busy, setBusy] = useState(false);
  if (!daily) return null;
  const { streak } = daily;
  const states = stepStates(streak.step, streak.claimedToday);

  const claim = async () => {
    setBusy(true);
    try {
      const result = await claimDailyStreak(api);
      haptic.success();
      notify(_('app.daily.paid', { amount: result.claimed }), 'success');
      await refresh();
    } catch (err) {
      haptic.error();
      notify((err instanceof ResponseError ? err.refusal : null) ?? messages.somethingWrong, 'error');
    }
    setBusy(false);
  };

  return (
    <Popup title={_('app.daily.streak.title')} onClose={onClose}>
      <img className="popup__art" src={art('daily-calendar')} alt="" />
      <p className="hint streak__text">{_('app.daily.streak.text', { days: formatCount(appLocale(), streakLadderLength) })}</p>
      <p className="streak__run" data-testid="streak-run">{_('app.daily.streak.inRow', { count: streak.days, days: formatCount(appLocale(), streak.days) })}</p>
      <ol className="streak__days">
        {economy.dailyStreakRewardsMoney.map((reward, i) => (
          <li key={i} className={`streak__day is-${states[i]}`} data-testid={`streak-day-${i + 1}`} aria-current={states[i] === 'today' ? 'date' : undefined}>
            <span className="streak__day-label">{_('app.daily.streak.day', { day: formatCount(appLocale(), i + 1) })}</span>
            <img src={art('money-token')} alt="" className="streak__day-token" />
            <strong><bdi>{formatCount(appLocale(), reward)}</bdi></strong>
            {states[i] === 'claimed' && <span className="streak__check" aria-label={_('app.ui.claimed')}>✓</span>}
          </li>
        ))}
      </ol>
      {streak.claimedToday ? (
        <button className="btn btn--block btn--ghost" disabled>
          {_('app.daily.streak.comeBack', { time: formatCountdown(left) })}
        </button>
      ) : (
        <button className="btn btn--block" disabled={busy} onClick={() => void claim()}>
          {_('app.ui.claim')} <MoneyIcon /> <bdi>+{streak.reward}</bdi>
        </button>
      )}
    </Popup>
  );
};
