import { Trans, useLingui } from '@lingui/react';
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { THEME, TonConnectUIProvider, useTonConnectUI, type Wallet } from '@tonconnect/ui-react';
import type { WalletInfo } from '../../../engine/wire/api-types.ts';
import { i18n } from '../../i18n/i18n.ts';
import { intlTag } from '../../../engine/rules/i18n/format.ts';
import { config } from '../../config.ts';
import { getTonProofPayload, getWallet, linkTonWallet, unlinkTonWallet } from '../api/calls.ts';
import { ResponseError } from '../api/client.ts';
import { useApi } from '../api/queries.ts';
import { appLocale } from '../locale.ts';
import { notify } from '../messages.ts';
import { colorScheme } from '../../telegram.ts';
import './ton-wallet.css';

/**
 * The TON wallet link under the Wallet teaser (docs/airdrop.md). This module and TON Connect are
 * their own lazy chunk: loaded only when the player opens Wallet, never in the initial JS.
 */
const walletKey = ['wallet'] as const;
const tonConnectAnalytics = { mode: 'off' } as const;
const manifestUrl = () => new URL(`${config.apiBase}/public/tonconnect-manifest.json`, window.location.href).href;
/** An allocation (a decimal string of MONEY, up to 9 decimals) with the locale's grouping. */
const formatAllocation = (amount: string) => new Intl.NumberFormat(intlTag(appLocale()), { maximumFractionDigits: 9 }).format(Number(amount));
/** TON Connect's modal in Telegram's scheme: dark over the dark app (docs/mini-app.md "Telegram"). */
const uiPreferences = () => ({ theme: colorScheme() === 'dark' ? THEME.DARK : THEME.LIGHT });
const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-6)}`;
/** The server's refusal in the player's language (by its code), else the generic link failure. */
const failure = (error: unknown) => (error instanceof ResponseError && error.refusal) || i18n._('app.wallet.linkFailed');

const LinkCard = () => {
  const api = useApi();
  const { _ } = useLingui();
  const queryClient = useQueryClient();
  const [tonConnectUI, setOptions] = useTonConnectUI();
  const [busy, setBusy] = useState(false);
  const wallet = useQuery({ queryKey: walletKey, queryFn: () => getWallet(api) });
  const linking = useRef(false);

  // The wallet answers the modal with its account and the signed ton_proof; the server checks both.
  useEffect(
    () =>
      tonConnectUI.onStatusChange((w: Wallet | null) => {
        const proof = w?.connectItems?.tonProof;
        if (w === null || !linking.current || proof === undefined || !('proof' in proof)) return;
        linking.current = false;
        const { account } = w;
        void linkTonWallet(api, {
          address: account.address,
          network: account.chain,
          ...(account.publicKey !== undefined ? { publicKey: account.publicKey } : {}),
          walletStateInit: account.walletStateInit ?? '',
          proof: proof.proof,
        })
          .then((info) => {
            queryClient.setQueryData<WalletInfo>(walletKey, info);
            notify(i18n._('app.wallet.linked'), 'success');
          })
          .catch((error: unknown) => {
            notify(failure(error), 'error');
            void tonConnectUI.disconnect().catch(() => undefined);
          })
          .finally(() => setBusy(false));
      }),
    [api, queryClient, tonConnectUI],
  );

  const link = async () => {
    setBusy(true);
    try {
      if (tonConnectUI.connected) await tonConnectUI.disconnect();
      const { payload } = await getTonProofPayload(api);
      tonConnectUI.setConnectRequestParameters({ state: 'ready', value: { tonProof: payload } });
      linking.current = true;
      // TON Connect keeps one instance per page: the scheme is set again in case Telegram's changed.
      setOptions({ uiPreferences: uiPreferences() });
      await tonConnectUI.openModal();
    } catch (error) {
      notify(failure(error), 'error');
    }
    // The modal stays open on its own; the status listener finishes the link.
    setBusy(false);
  };

  const unlink = async () => {
    setBusy(true);
    try {
      queryClient.setQueryData<WalletInfo>(walletKey, await unlinkTonWallet(api));
      if (tonConnectUI.connected) await tonConnectUI.disconnect();
    } catch (error) {
      notify(failure(error), 'error');
    }
    setBusy(false);
  };

  // Without the wallet API (an older server) there is nothing to link to.
  if (wallet.isError) return null;
  const info = wallet.data;
  return (
    <section className="card ton-wallet" aria-label={_('app.wallet.ton')}>
      {info?.allocation && (
        <p className="ton-wallet__allocation" data-testid="allocation">
          <Trans id="app.wallet.allocation" values={{ amount: formatAllocation(info.allocation.amount) }} components={{ 0: <strong /> }} />
        </p>
      )}
      {wallet.isPending ? (
        <p className="ton-wallet__hint">{_('app.wallet.loading')}</p>
      ) : info?.address ? (
        <>
          <p className="ton-wallet__hint">{_('app.wallet.linkedHint')}</p>
          <p className="ton-wallet__address" data-testid="linked-address" title={info.friendlyAddress ?? info.address}>
            {short(info.friendlyAddress ?? info.address)}
          </p>
          <button className="btn btn--ghost btn--small" disabled={busy} onClick={() => void unlink()}>
            {_('app.wallet.unlink')}
          </button>
        </>
      ) : (
        <>
          <p className="ton-wallet__hint">{_('app.wallet.linkHint')}</p>
          <button className="btn btn--block" disabled={busy} onClick={() => void link()}>
            {_('app.wallet.link')}
          </button>
        </>
      )}
    </section>
  );
};

/**
 * Default export for React.lazy in wallet-screen.tsx. TON Connect's own analytics (events to
 * analytics.ton.org, which the mini-app's CSP refuses) are off.
 */
const TonWalletLink = () => (
  <TonConnectUIProvider manifestUrl={manifestUrl()} language={appLocale() === 'ru' ? 'ru' : 'en'} analytics={tonConnectAnalytics} uiPreferences={uiPreferences()}>
    <LinkCard />
  </TonConnectUIProvider>
);
export default TonWalletLink;
