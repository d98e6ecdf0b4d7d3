import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useSignals } from '@preact/signals-react/runtime';
import type { BoostKey } from '../../../engine/rules/economy.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { $balance } from '../../engine-client/signals.ts';
import { haptic } from '../../telegram.ts';
import { art, CoinIcon, Icon } from '../ui/art.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { boosterKeys, boostView, itemKeys } from './boost-model.ts';
import { UpgradePopup } from './upgrade-popup.tsx';
import { ComboPanel } from '../daily/combo-panel.tsx';
import { ShopPanel } from '../shop/shop-panel.tsx';
import './boost.css';


const BoosterRow = ({ boostKey, onOpen }: { boostKey: BoostKey; onOpen: (key: BoostKey) => void }) => {
  useSignals();
  const { _ } = useLingui();
  const view = boostView(_, boostKey);
  return (
    // Named by what it shows (title, level, description, price, effect): WCAG 2.5.3, label in name.
    <button className="card boost__row" onClick={() => onOpen(boostKey)}>
      <img className="boost__row-img" src={art(view.image)} alt="" />
      <div className="row__main">
        <div className="row__title">{view.title} <span className="boost__row-level">{_('app.boost.lv', { level: view.level })}</span></div>
        <div className="row__sub">{view.description}</div>
        <div className="row__sub boost__row-price"><CoinIcon /> <strong>{view.price}</strong> <span className="boost__row-effect">{view.effect}</span></div>
      </div>
      <span className={view.refusal ? 'boost__go is-off' : 'boost__go'} aria-hidden="true">›</span>
    </button>
  );
};

const ItemCard = ({ boostKey, onOpen }: { boostKey: BoostKey; onOpen: (key: BoostKey) => void }) => {
  useSignals();
  const { _ } = useLingui();
  const view = boostView(_, boostKey);
  return (
    <button
      className={`card boost__item${view.masked ? ' is-locked' : ''}`}
      onClick={() => onOpen(boostKey)}
      data-testid={`item-${boostKey}`}
    >
      <div className="boost__item-art">
        <img src={art(view.image)} alt="" />
        {view.sequenceLocked && <span className="lock-badge boost__lock" role="img" aria-label={_('app.ui.locked')}><Icon name="icon-lock" size={13} /></span>}
      </div>
      <div className="boost__item-title">{view.title}</div>
      <div className="boost__item-level">{_('app.boost.lv', { level: view.level })}</div>
      <div className="boost__item-effect">{view.effect}</div>
      <div className="boost__item-price"><CoinIcon /> {view.price}</div>
    </button>
  );
};

/** Boost (§2): the Booster tab (Finger, Handheld, Energy Limit) and the Upgrade grid of items 4–21. */
export const BoostScreen = () => {
  useSignals();
  const { _ } = useLingui();
  // Home's combo tile opens the Upgrade tab (?tab=upgrade), where the day's combo is found.
  const [params] = useSearchParams();
  const [tab, setTab] = useState<'booster' | 'upgrade'>(params.get('tab') === 'upgrade' ? 'upgrade' : 'booster');
  const tabs = [
    { id: 'booster', label: _('app.boost.booster') },
    { id: 'upgrade', label: _('app.boost.upgrade') },
  ] as const;
  const [open, setOpen] = useState<BoostKey | null>(null);
  const openKey = (key: BoostKey) => {
    haptic.tap();
    setOpen(key);
  };
  return (
    <div className="boost">
      <div className="boost__balance">
        <span className="hint">{_('app.boost.yourBalance')}</span>
        <strong><CoinIcon /> {formatMoney($balance.value)}</strong>
      </div>
      <Tabs label={_('app.boost.tabs')} tabs={tabs} value={tab} onChange={setTab} />
      {tab === 'booster' ? (
        <>
          <div className="list">
            {boosterKeys.map((key) => <BoosterRow key={key} boostKey={key} onOpen={openKey} />)}
          </div>
          <ShopPanel />
        </>
      ) : (
        <>
          <ComboPanel />
          <div className="boost__grid">
            {itemKeys.map((key) => <ItemCard key={key} boostKey={key} onOpen={openKey} />)}
          </div>
        </>
      )}
      {open !== null && <UpgradePopup boostKey={open} onClose={() => setOpen(null)} />}
    </div>
  );
};
