import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { economy } from '../../../engine/rules/economy.ts';
import { formatWallet } from '../../../engine/rules/format.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { money } from '../../../engine/rules/money.ts';
import { $autoEarn, $totalEarn } from '../../engine-client/signals.ts';
import { appLocale } from '../locale.ts';
import { art } from '../ui/art.tsx';

/**
 * The wallet mock view (§2): balance = total earned + auto earned, compact only above 999,999,999,999 (§9), a disabled
 * Send card (COMING SOON), the rate text, a Receive card, and an always-empty History.
 */
export const WalletMock = () => {
  useSignals();
  const { _ } = useLingui();
  const [amount, setAmount] = useState('');
  const [address, setAddress] = useState('');
  const balance = money($totalEarn.value).plus($autoEarn.value);
  // §2: it needs an amount above 0 and a non-empty address, but does nothing.
  const canSend = Number(amount) > 0 && address.trim() !== '';
  return (
    <div className="wallet wallet--mock">
      <div className="card wallet__balance">
        <span className="hint">{_('app.wallet.balance')}</span>
        <strong><img className="money-icon" src={art('coin-small')} alt="" /> {formatWallet(balance)}</strong>
      </div>
      <section className="card wallet__card">
        <h2 className="h2">{_('app.wallet.send')}</h2>
        <input className="input" placeholder={_('app.wallet.amount')} value={amount} onChange={(e) => setAmount(e.target.value)} disabled />
        <input className="input" placeholder={_('app.wallet.address')} value={address} onChange={(e) => setAddress(e.target.value)} disabled />
        <button className="btn btn--block" disabled={!canSend} onClick={() => undefined}>{_('app.wallet.comingSoon')}</button>
        <p className="hint">{_('app.wallet.rate', { dollars: formatCount(appLocale(), economy.dollarsPerMoney) })}</p>
      </section>
      <section className="card wallet__card">
        <h2 className="h2">{_('app.wallet.receive')}</h2>
        <div className="row"><input className="input" value="" placeholder={_('app.wallet.yourAddress')} disabled /><span className="wallet__copy">{_('app.wallet.copy')}</span></div>
      </section>
      <section className="card wallet__card">
        <h2 className="h2">{_('app.wallet.history')}</h2>
        <p className="empty">{_('app.wallet.noData')}</p>
      </section>
    </div>
  );
};
