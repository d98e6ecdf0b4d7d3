import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShopItemView } from '../../../engine/rules/shop.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { createShopOrder, getShop, getShopOrder } from '../api/calls.ts';
import { ResponseError } from '../api/client.ts';
import { keys, useApi } from '../api/queries.ts';
import { haptic, openInvoice, telegramUser, type InvoiceStatus } from '../../telegram.ts';
import { isDemo } from '../demo.ts';
import { appLocale } from '../locale.ts';
import { notify } from '../messages.ts';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { openDemoInvoice } from './demo-invoice.ts';
import './shop.css';

/** How the last purchase stands, as the panel says it. */
type Outcome = { kind: 'crediting' | 'paid' | 'cancelled' | 'failed' | 'pending' | 'unsupported'; title: string };

/** Asks the server until the bot has credited the order (successful_payment), for at most ~20 s. */
const creditedSoon = async (ask: () => Promise<{ state: string }>): Promise<boolean> => {
  for (let i = 0; i < 40; i++) {
    const order = await ask().catch(() => null);
    if (order?.state === 'paid') return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
};

const effectText = (_: (id: string, values?: Record<string, unknown>) => string, item: ShopItemView): string =>
  item.effect === 'energyRefill'
    ? _('app.shop.effect.energyRefill')
    : item.effect === 'doubleTap'
      ? _('app.shop.effect.doubleTap', { hours: formatCount(appLocale(), item.amount) })
      : _('app.shop.effect.autoTaps', { taps: formatCount(appLocale(), item.amount) });

/**
 * The Stars shop on Boost (docs/shop.md): the items the console has on sale, bought with Telegram
 * Stars through the payment sheet (WebApp.openInvoice; the demo's own sheet in the demo). Only the
 * bot's successful_payment credits; once the order is paid, the status owner refreshes (the engine),
 * so the refill, the doubled taps or the pack's dollars show at once.
 */
export const ShopPanel = () => {
  const { _ } = useLingui();
  const api = useApi();
  const queryClient = useQueryClient();
  const refreshStatus = useRefreshAfterClaim();
  const shop = useQuery({ queryKey: keys.shop, queryFn: () => getShop(api) });
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const buy = async (item: ShopItemView) => {
    haptic.tap();
    setBusy(item.id);
    setOutcome(null);
    try {
      const order = await createShopOrder(api, item.id);
      const userId = telegramUser()?.id ?? 0;
      const status: InvoiceStatus = isDemo('telegram') ? await openDemoInvoice(order.invoiceLink, userId) : await openInvoice(order.invoiceLink);
      if (status === 'paid' || status === 'pending') {
        setOutcome({ kind: status === 'paid' ? 'crediting' : 'pending', title: item.title });
        const credited = await creditedSoon(() => getShopOrder(api, order.orderId));
        if (credited) {
          await refreshStatus();
          haptic.success();
        }
        void queryClient.invalidateQueries({ queryKey: keys.shop });
        setOutcome({ kind: credited ? 'paid' : 'pending', title: item.title });
      } else setOutcome({ kind: status, title: item.title });
    } catch (error) {
      const refusal = error instanceof ResponseError ? error.refusal : null;
      if (refusal) notify(refusal, 'error');
      setOutcome({ kind: 'failed', title: item.title });
      void queryClient.invalidateQueries({ queryKey: keys.shop });
    } finally {
      setBusy(null);
    }
  };

  const items = shop.data?.items ?? [];
  if (shop.isError || (shop.isSuccess && items.length === 0)) return null;
  return (
    <section className="card shop" aria-label={_('app.shop.title')} data-testid="shop">
      <header className="shop__head">
        <strong>{_('app.shop.title')}</strong>
        <span className="hint">{_('app.shop.subtitle')}</span>
        {isDemo('telegram') && <span className="shop__demo">{_('app.shop.demo')}</span>}
      </header>
      {outcome !== null && (
        <p className={`shop__outcome is-${outcome.kind}`} role="status" data-testid="shop-outcome" data-state={outcome.kind}>
          {_(`app.shop.outcome.${outcome.kind}`, { title: outcome.title })}
        </p>
      )}
      <ul className="shop__items">
        {items.map((item) => {
          const soldOut = item.boughtToday >= item.dailyLimit;
          return (
            <li key={item.id} className="shop__item" data-testid={`shop-${item.id}`}>
              <div className="shop__text">
                <div className="shop__title">{item.title}</div>
                <div className="hint shop__effect">{effectText(_, item)}</div>
                <div className="hint shop__limit">
                  {_('app.shop.left', { left: formatCount(appLocale(), Math.max(0, item.dailyLimit - item.boughtToday)), limit: formatCount(appLocale(), item.dailyLimit) })}
                </div>
              </div>
              <button className="btn shop__buy" disabled={busy !== null || soldOut} onClick={() => void buy(item)} aria-label={_('app.shop.buy', { title: item.title, price: formatCount(appLocale(), item.price) })}>
                {soldOut ? _('app.shop.soldOut') : <><span className="shop__star" aria-hidden="true">★</span> <bdi>{formatCount(appLocale(), item.price)}</bdi></>}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
};
