import { useState } from 'react';
import { demoPaths, type Task } from '../../../engine/api-types.ts';
import { economy } from '../../../engine/economy.ts';
import { formatMoney } from '../../../engine/format.ts';
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
        task={{ ...task, title: 'Daily Oppotunity', image: task.image || 'task-ads' }}
        sub={<span className="task__count" data-testid="ads-count"> · {task.numberOfDone} / {economy.adsPerDay}</span>}
      >
        {done ? <DoneMark /> : (
          <button className="btn btn--small" disabled={busy} onClick={() => void watch()}>{busy ? '…' : 'Watch'}</button>
        )}
      </TaskShell>
      {popup === 'reward' && (
        <Popup title="grab your reward" onClose={() => setPopup(null)}>
          <img className="popup__art" src={art('money-token')} alt="" />
          <p><strong className="gold-text">+{formatMoney(task.reward)}</strong> <MoneyIcon /></p>
          <div className="popup__actions">
            <button className="btn" disabled={done} onClick={() => void watch()}>Next video</button>
            <button className="btn btn--ghost" onClick={() => setPopup(null)}>Close</button>
          </div>
        </Popup>
      )}
      {popup === 'skip' && (
        <Popup title="Hold On!" onClose={() => setPopup(null)}>
          <p className="hint">Watch the video to the end to get your reward.</p>
          <div className="popup__actions">
            <button className="btn" onClick={() => void watch()}>KEEP WATCHING</button>
            <button className="btn btn--ghost" onClick={() => setPopup(null)}>Close</button>
          </div>
        </Popup>
      )}
    </>
  );
};
