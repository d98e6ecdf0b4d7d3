import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { art } from '../ui/art.tsx';
import { formatCountdown, useDaily, useTimeLeft } from './use-daily.ts';
import './daily.css';

interface TileProps {
  image: string;
  title: string;
  done: boolean;
  time: string;
  testId: string;
  pressed?: boolean;
}

const TileBody = ({ image, title, done, time }: TileProps) => {
  const { _ } = useLingui();
  return (
    <>
      <span className="daily__art">
        <img src={art(image)} alt="" />
        {!done && <span className="daily__dot" aria-label={_('app.daily.waiting')} />}
      </span>
      <span className="daily__title">{title}</span>
      <span className={done ? 'daily__time is-done' : 'daily__time'}>{done ? `✓ ${_('app.ui.done')}` : time}</span>
    </>
  );
};

/**
 * Home's three daily tiles (docs/rules.md §15): the streak's reward (opens the calendar), the combo
 * (opens Boost's Upgrade tab) and the cipher (turns the coin into a Morse key). A red dot says what
 * is still waiting today; the time is what is left of the UTC day.
 */
export const DailyRow = ({ cipherOn, onStreak, onCipher }: { cipherOn: boolean; onStreak: () => void; onCipher: () => void }) => {
  const { _ } = useLingui();
  const daily = useDaily();
  const time = formatCountdown(useTimeLeft());
  if (!daily) return null;
  const streak = { image: 'daily-calendar', title: _('app.daily.reward'), done: daily.streak.claimedToday, time, testId: 'daily-streak' };
  const combo = { image: 'daily-combo', title: _('app.daily.combo'), done: daily.combo.complete, time, testId: 'daily-combo' };
  const cipher = { image: 'daily-cipher', title: _('app.daily.cipher'), done: daily.cipher.solved, time, testId: 'daily-cipher' };
  return (
    <nav className="daily" aria-label={_('app.daily.label')}>
      <button className="daily__tile" data-testid={streak.testId} onClick={onStreak}>
        <TileBody {...streak} />
      </button>
      <Link className="daily__tile" data-testid={combo.testId} to="/boost?tab=upgrade">
        <TileBody {...combo} />
      </Link>
      <button className={cipherOn ? 'daily__tile is-on' : 'daily__tile'} data-testid={cipher.testId} aria-pressed={cipherOn} onClick={onCipher}>
        <TileBody {...cipher} />
      </button>
    </nav>
  );
};
