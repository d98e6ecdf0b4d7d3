import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { economy, type BoostKey } from '../../../engine/rules/economy.ts';
import { haptic } from '../../telegram.ts';
import { useEngine } from '../engine-context.tsx';
import { messages, notify } from '../messages.ts';
import { art, CoinIcon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';
import { boostView } from './boost-model.ts';

const refusalLabel = { 'max-level': 'app.ui.maxLevel', locked: 'app.boost.locked', unaffordable: 'app.boost.notEnough' } as const;

/** §2: the confirm popup before any upgrade, with the "1s" cooldown after a purchase (§9). */
export const UpgradePopup = ({ boostKey, onClose }: { boostKey: BoostKey; onClose: () => void }) => {
  useSignals();
  const engine = useEngine();
  const { _ } = useLingui();
  const view = boostView(_, boostKey);
  const [busy, setBusy] = useState(false);
  const [cooling, setCooling] = useState(false);
  useEffect(() => {
    if (!cooling) return;
    const timer = setTimeout(() => setCooling(false), economy.upgradeCooldownMs);
    return () => clearTimeout(timer);
  }, [cooling]);

  const upgrade = async () => {
    setBusy(true);
    try {
      const result = await engine.upgrade(boostKey);
      if (result.ok) {
        haptic.success();
        notify(messages.upgradeSuccess, 'success');
      } else {
        haptic.error();
        // §8: the server message if present (translated by its code), else the generic one.
        notify(result.message ? result : messages.somethingWrong, 'error');
      }
    } catch {
      haptic.error();
      notify(messages.somethingWrong, 'error');
    }
    setBusy(false);
    setCooling(true);
  };

  const disabled = busy || cooling || view.refusal !== null;
  return (
    <Popup title={view.title} onClose={onClose}>
      <img className={view.sequenceLocked ? 'popup__art is-locked' : 'popup__art'} src={art(view.image)} alt="" />
      <p className="hint">{view.description}</p>
      <div className="boost__confirm">
        <div><span className="hint">{_('app.boost.level')}</span><strong>{view.level}</strong></div>
        <div><span className="hint">{_('app.boost.effect')}</span><strong>{view.effect}</strong></div>
        <div><span className="hint">{_('app.boost.price')}</span><strong><CoinIcon /> {view.price}</strong></div>
      </div>
      <button className="btn btn--block" disabled={disabled} onClick={() => void upgrade()}>
        {cooling ? economy.upgradeCooldownLabel : view.refusal ? _(refusalLabel[view.refusal]) : _('app.boost.upgrade')}
      </button>
    </Popup>
  );
};
