import { useLingui } from '@lingui/react';
import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import { formatMoney } from '../../../engine/rules/format.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { $balance, $clickValue, $energy, $energyRatio, $maxEnergy, $passivePerSecond, $tapStreak, $totalMoney } from '../../engine-client/signals.ts';
import { telegramUser } from '../../telegram.ts';
import { useLeaderboard } from '../api/queries.ts';
import { useStatus } from '../engine-context.tsx';
import { appLocale } from '../locale.ts';
import { art, Avatar, CoinIcon, Icon, MoneyIcon } from '../ui/art.tsx';
import { CipherMode } from '../daily/cipher-mode.tsx';
import { DailyRow } from '../daily/daily-row.tsx';
import { StreakSheet } from '../daily/streak-sheet.tsx';
import { CoinButton } from './coin-button.tsx';
import { HomeScreenOffer } from './home-screen-offer.tsx';
import { MoneyDreamPopup } from './money-dream-popup.tsx';
import { ProfileCard } from './profile-card.tsx';
import './home.css';

/** The dollar counter: re-renders alone when the balance signal changes. */
const BalanceCounter = () => {
  useSignals();
  const { _ } = useLingui();
  return (
    <div className="home__total" role="group" aria-label={_('app.home.totalMoney')}>
      <img className="home__total-coin" src={art('coin-small')} alt="" />
      <span className="home__total-value" data-testid="balance">{formatMoney($balance.value)}</span>
    </div>
  );
};

const YourMoney = () => {
  useSignals();
  const { _ } = useLingui();
  return (
    <div className="home__your-money">
      <span className="hint">{_('app.home.yourMoney')}</span>
      <strong data-testid="your-money"><MoneyIcon /> {formatMoney($totalMoney.value)}</strong>
    </div>
  );
};

const circumference = 2 * Math.PI * 46;

/** §2: the energy ring around the coin, and current/max under it. */
const EnergyRing = () => {
  useSignals();
  return (
    <svg className="home__ring" viewBox="0 0 100 100" aria-hidden="true">
      <circle className="home__ring-track" cx="50" cy="50" r="46" />
      <circle
        className="home__ring-fill"
        cx="50"
        cy="50"
        r="46"
        strokeDasharray={circumference}
        strokeDashoffset={circumference * (1 - Math.min(1, $energyRatio.value))}
      />
    </svg>
  );
};

const EnergyLabel = () => {
  useSignals();
  return (
    <div className="home__energy" data-testid="energy">
      <Icon name="icon-energy" size={20} className="home__bolt" />
      <strong>{$energy.value}</strong>
      <span className="hint"> / {$maxEnergy.value}</span>
    </div>
  );
};

const Streak = () => {
  useSignals();
  const { _ } = useLingui();
  const streak = $tapStreak.value;
  return <div className={streak > 1 ? 'home__streak is-on' : 'home__streak'} aria-hidden="true">{_('app.home.combo', { streak })}</div>;
};

const Stats = () => {
  useSignals();
  const { _ } = useLingui();
  return (
    <div className="home__stats">
      <div className="home__stat">
        <span className="hint">{_('app.home.perTap')}</span>
        <strong><CoinIcon /> <bdi>+{$clickValue.value}</bdi></strong>
      </div>
      <div className="home__stat">
        <span className="hint">{_('app.home.autoEarn')}</span>
        <strong data-testid="per-second"><CoinIcon /> <bdi>{_('app.ui.perSecond', { amount: formatMoney($passivePerSecond.value) })}</bdi></strong>
      </div>
      <Link className="home__stat home__stat--boost" to="/boost">
        <img src={art('boost-handheld')} alt="" />
        <strong>{_('app.home.boost')}</strong>
      </Link>
    </div>
  );
};

/** Home (§2): who you are, what you have, and the coin. */
export const HomeScreen = () => {
  const status = useStatus().data;
  const rank = useLeaderboard(1).data?.items[0]?.rank;
  const [profileOpen, setProfileOpen] = useState(false);
  const [streakOpen, setStreakOpen] = useState(false);
  // Cipher mode (docs/rules.md §15.3) puts a Morse key where the coin is: no tap reaches the engine.
  const [cipherOn, setCipherOn] = useState(false);
  const exitCipher = useCallback(() => setCipherOn(false), []);
  const { _ } = useLingui();
  const name = status?.teleUsername || telegramUser()?.first_name || _('app.home.player');
  return (
    <div className="home">
      <header className="home__header">
        <button className="home__avatar" aria-label={_('app.home.openProfile')} onClick={() => setProfileOpen(true)}>
          <Avatar src={status?.teleAvatar ?? telegramUser()?.photo_url} name={name} size={42} />
        </button>
        <div className="home__who">
          {/* A long name is cut with an ellipsis here; the tap opens the profile, which shows it whole. */}
          <button className="home__name" dir="auto" title={name} onClick={() => setProfileOpen(true)}>{name}</button>
          <Link className="home__rank" to="/leaderboard">
            <Icon name="icon-leaderboard" size={16} />
            {rank !== undefined ? _('app.home.rank', { rank: formatCount(appLocale(), rank) }) : _('app.home.rankPending')}
          </Link>
        </div>
        <YourMoney />
      </header>
      <DailyRow cipherOn={cipherOn} onStreak={() => setStreakOpen(true)} onCipher={() => setCipherOn((on) => !on)} />
      {cipherOn ? (
        <CipherMode onExit={exitCipher} />
      ) : (
        <>
          <BalanceCounter />
          <div className="home__play">
            <div className="home__arena">
              <EnergyRing />
              <CoinButton />
              <Streak />
            </div>
            <EnergyLabel />
          </div>
        </>
      )}
      <Stats />
      <MoneyDreamPopup />
      {streakOpen && <StreakSheet onClose={() => setStreakOpen(false)} />}
      <HomeScreenOffer />
      {profileOpen && status && <ProfileCard status={status} onClose={() => setProfileOpen(false)} />}
    </div>
  );
};
