import { Trans, useLingui } from '@lingui/react';
import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { money } from '../../../engine/rules/money.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { $offlineReward } from '../../engine-client/signals.ts';
import { useEngine } from '../engine-context.tsx';
import { Popup } from '../ui/popup.tsx';
import { art } from '../ui/art.tsx';
import { useClaim } from '../use-claim.ts';

/**
 * §4: the offline popup is shown once per app load, when the reward is above 0. The engine offers
 * only what accrued while the player was away, until a claim banks it (docs/engine.md "The offline
 * reward"), so it never opens mid-session nor for an amount already claimed.
 */
let shownThisLoad = false;

/** Test hook: a new app load. */
export const resetMoneyDream = () => {
  shownThisLoad = false;
};

/** "Money Dream" (§2): what passive income earned while the app was closed, and a claim button. */
export const MoneyDreamPopup = () => {
  useSignals();
  const engine = useEngine();
  const { _ } = useLingui();
  const reward = $offlineReward.value;
  const [open, setOpen] = useState(false);
  const { busy, run } = useClaim();
  if (!open && !shownThisLoad && money(reward).gt(0)) {
    shownThisLoad = true;
    setOpen(true);
  }
  // The 90 s claim (or an upgrade's) banked it while the popup was open: nothing is left to claim.
  if (!open || !money(reward).gt(0)) return null;
  const claim = async () => {
    // The engine's claim reconciles with the status it answers: nothing else to reload.
    await run(async () => {
      const result = await engine.claim();
      if (!result.ok) throw new Error(result.message);
    }, { refresh: false });
    setOpen(false);
  };
  return (
    <Popup title={_('app.dream.title')} onClose={() => setOpen(false)}>
      <img className="popup__art" src={art('coin')} alt="" />
      <p><Trans id="app.dream.text" values={{ amount: formatMoney(reward) }} components={{ 0: <strong className="gold-text" /> }} /></p>
      <button className="btn btn--block" disabled={busy} onClick={() => void claim()}>{_('app.ui.claim')}</button>
    </Popup>
  );
};
