import { Trans, useLingui } from '@lingui/react';
import { Suspense, useState, type ReactNode } from 'react';
import { economy } from '../../../engine/rules/economy.ts';
import { retryingLazy } from '../../route-retry.tsx';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { setPredictWallet } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { useStatus } from '../engine-context.tsx';
import { appLocale } from '../locale.ts';
import { notify } from '../messages.ts';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { WalletMock } from './wallet-mock.tsx';
import { AirdropReviewNotice } from './airdrop-review-notice.tsx';
import './wallet.css';

// TON Connect is its own chunk, fetched when this screen renders (docs/airdrop.md).
const TonWalletLink = retryingLazy(() => import('./ton-wallet-link.tsx'));

/**
 * §2: the mock view is reachable only through an internal flag that the product never sets. The
 * flag is a localStorage key so the screenshot script can show the view; nothing in the app writes it.
 */
export const walletMockFlag = 'money_wallet_mock';
const showMock = () => {
  try {
    return localStorage.getItem(walletMockFlag) === '1';
  } catch {
    return false;
  }
};

/** The prize inside the forecast line: the MONEY icon, then the amount. */
const Prize = ({ children }: { children?: ReactNode }) => <strong><MoneyIcon /> {children}</strong>;

/** The forecast states of §4: unknown (button hidden), not submitted, submitted. */
export type ForecastState = 'unknown' | 'open' | 'submitted';
export const forecastState = (preWlComing: number | undefined | null): ForecastState =>
  preWlComing === undefined || preWlComing === null ? 'unknown' : preWlComing > 0 ? 'submitted' : 'open';

/** Wallet teaser (§2): "Wallet is coming in [ ] days", one forecast per user worth 7777 MONEY. */
export const WalletScreen = () => {
  const status = useStatus();
  const api = useApi();
  const refreshAfterClaim = useRefreshAfterClaim();
  const [days, setDays] = useState('');
  const [busy, setBusy] = useState(false);
  const { _ } = useLingui();
  if (showMock()) return <WalletMock />;
  if (status.isPending) return <Skeleton count={3} height={80} />;
  const preWlComing = status.data?.preWlComing;
  const state = forecastState(preWlComing);
  const submit = async () => {
    // §5: numeric only. A value the server would refuse (empty, 0, too many days) is not sent: the
    // player is told the range instead of meeting a silent 400 (docs/mini-app.md, Wallet teaser).
    const n = Number(days);
    if (days === '' || n < economy.forecastMinDays || n > economy.forecastMaxDays) {
      notify(_('app.wallet.enterDays', { min: economy.forecastMinDays, max: formatCount(appLocale(), economy.forecastMaxDays) }));
      return;
    }
    setBusy(true);
    try {
      await setPredictWallet(api, days);
      await refreshAfterClaim();
    } catch (error) {
      // §4: a failed forecast is only logged.
      console.error('forecast', error);
    }
    setBusy(false);
  };
  return (
    <div className="wallet">
      <AirdropReviewNotice />
      <img className="wallet__art" src={art('money-token')} alt="" />
      <h1 className="h1">{_('app.wallet.comingIn')}</h1>
      <div className="wallet__days">
        {state === 'submitted' ? (
          <strong className="wallet__number" data-testid="forecast">{preWlComing}</strong>
        ) : (
          <input
            className="wallet__input"
            type="text"
            inputMode="numeric"
            aria-label={_('app.wallet.daysLabel')}
            // An empty box reads as broken: a "?" says a number of days goes here.
            placeholder="?"
            value={days}
            disabled={state === 'unknown'}
            onChange={(e) => setDays(e.target.value.replace(/\D/g, ''))}
          />
        )}
        <span className="wallet__word">{_('app.wallet.days')}</span>
      </div>
      <p className="wallet__text">
        {state === 'submitted'
          ? _('app.wallet.submitted')
          : <Trans id="app.wallet.guess" values={{ amount: formatCount(appLocale(), economy.forecastPrizeMoney) }} components={{ 0: <Prize /> }} />}
      </p>
      {state !== 'unknown' && (
        <button className="btn btn--block" disabled={state === 'submitted' || busy} onClick={() => void submit()}>
          {state === 'submitted' ? _('app.wallet.submittedButton') : _('app.wallet.submit')}
        </button>
      )}
      <Suspense fallback={null}>
        <TonWalletLink />
      </Suspense>
    </div>
  );
};
