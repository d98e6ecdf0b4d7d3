import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { demoPaths, type Task } from '../../../engine/wire/api-types.ts';
import { economy } from '../../../engine/rules/economy.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { config } from '../../config.ts';
import { haptic } from '../../telegram.ts';
import { claimAdsReward, startWatchAds } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { chooseBlockId, loadAdsgram, showAd, toBase64 } from '../ads/adsgram.ts';
import { isDemo } from '../demo.ts';
import { messages, notify } from '../messages.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { DoneMark, TaskShell } from './task-row.tsx';
import { adsDone } from './task-rules.ts';

type AdPopup = 'reward' | 'skip' | null;

/**
 * "Daily Oppotunity" (§2, §4): watch an ad, n / 10 a day. Reward → "grab your reward" (Next video,
 * Close); skip → "Hold On!" (KEEP WATCHING, Close); an error or no SDK → "Watch video failed".
 */
export const AdsRow = ({ task }: { task: Task }) => {
  const api = useApi();
  const { _ } = useLingui();
  const refreshAfterClaim = useRefreshAfterClaim();
  const [popup, setPopup] = useState<AdPopup>(null);
  const [busy, setBusy] = useState(false);

  const fail = () => {
    haptic.error();
    notify(messages.adsFailed, 'error');
  };

  const watch = async () => {
    setPopup(null);
    setBusy(true);
    try {
      const controller = await loadAdsgram(chooseBlockId(config.adsgramBlockId), isDemo('ads') ? demoPaths.adsgramScript : undefined);
      if (!controller) return fail();
      const token = await startWatchAds(api);
      const outcome = await showAd(controller);
      if (outcome === 'error') return fail();
      if (outcome === 'skip') return setPopup('skip');
      await claimAdsReward(api, { taskId: task.id, encryptData: toBase64(token) });
      haptic.success();
      setPopup('reward');
      void refreshAfterClaim();
    } catch {
      fail();
    } finally {
      setBusy(false);
    }
  };

  const done = adsDone(task);
  return (
    <>
      <TaskShell
        task={{ ...task, title: _('app.ads.title'), titles: {}, image: task.image || 'task-ads' }}
        sub={<span className="task__count" data-testid="ads-count"> · <bdi>{task.numberOfDone} / {economy.adsPerDay}</bdi></span>}
      >
        {done ? <DoneMark /> : (
          <button className="btn btn--small" disabled={busy} onClick={() => void watch()}>{busy ? '…' : _('app.ads.watch')}</button>
        )}
      </TaskShell>
      {popup === 'reward' && (
        <Popup title={_('app.ads.rewardTitle')} onClose={() => setPopup(null)}>
          <img className="popup__art" src={art('money-token')} alt="" />
          <p><strong className="gold-text"><bdi>+{formatMoney(task.reward)}</bdi></strong> <MoneyIcon /></p>
          <div className="popup__actions">
            <button className="btn" disabled={done} onClick={() => void watch()}>{_('app.ads.nextVideo')}</button>
            <button className="btn btn--ghost" onClick={() => setPopup(null)}>{_('app.ui.close')}</button>
          </div>
        </Popup>
      )}
      {popup === 'skip' && (
        <Popup title={_('app.ads.holdOn')} onClose={() => setPopup(null)}>
          <p className="hint">{_('app.ads.holdOnText')}</p>
          <div className="popup__actions">
            <button className="btn" onClick={() => void watch()}>{_('app.ads.keepWatching')}</button>
            <button className="btn btn--ghost" onClick={() => setPopup(null)}>{_('app.ui.close')}</button>
          </div>
        </Popup>
      )}
    </>
  );
};
