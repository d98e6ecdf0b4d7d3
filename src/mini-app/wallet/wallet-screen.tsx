import { lazy, Suspense, useState } from 'react';
import { economy } from '../../../engine/economy.ts';
import { setPredictWallet } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { useStatus } from '../engine-context.tsx';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { WalletMock } from './wallet-mock.tsx';
import './wallet.css';

// TON Connect is its own chunk, fetched when this screen renders (docs/airdrop.md).
const TonWalletLink = lazy(() => import('./ton-wallet-link.tsx'));

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
  if (showMock()) return <WalletMock />;
  if (status.isPending) return <Skeleton count={3} height={80} />;
  const preWlComing = status.data?.preWlComing;
  const state = forecastState(preWlComing);
  const submit = async () => {
    setBusy(true);
    try {
      // §5: numeric only, sent as is; even an empty or zero value may be submitted.
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
      <img className="wallet__art" src={art('money-token')} alt="" />
      <h1 className="h1">Wallet is coming in</h1>
      <div className="wallet__days">
        {state === 'submitted' ? (
          <strong className="wallet__number" data-testid="forecast">{preWlComing}</strong>
        ) : (
          <input
            className="wallet__input"
            type="text"
            inputMode="numeric"
            aria-label="Days"
            value={days}
            disabled={state === 'unknown'}
            onChange={(e) => setDays(e.target.value.replace(/\D/g, ''))}
          />
        )}
        <span className="wallet__word">days</span>
      </div>
      <p className="wallet__text">
        {state === 'submitted'
          ? 'You have submitted your forecast. Now wait for your prizes!'
          : <>Guess right and earn <strong><MoneyIcon /> {economy.forecastPrizeMoney.toLocaleString('en-US')} MONEY</strong>. You can submit only once.</>}
      </p>
      {state !== 'unknown' && (
        <button className="btn btn--block" disabled={state === 'submitted' || busy} onClick={() => void submit()}>
          {state === 'submitted' ? 'submitted' : 'submit'}
        </button>
      )}
      <Suspense fallback={null}>
        <TonWalletLink />
      </Suspense>
    </div>
  );
};
