import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { UserStatus } from '../../../engine/api-types.ts';
import { formatMoney } from '../../../engine/format.ts';
import { haptic } from '../../telegram.ts';
import { claimEaster } from '../api/calls.ts';
import { keys, useApi } from '../api/queries.ts';
import { messages, notify } from '../messages.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';

/** The Easter-egg popup (§2): the pending Easter reward and a claim / claimed button. */
export const EasterPopup = ({ status, onClose }: { status: UserStatus; onClose: () => void }) => {
  const api = useApi();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const claimed = status.isClaimedEaster;
  const claim = async () => {
    if (claimed) return notify(messages.easterAlreadyClaimed, 'info');
    setBusy(true);
    try {
      const next = await claimEaster(api);
      queryClient.setQueryData(keys.status, next);
      haptic.success();
      notify(messages.claimedSuccessful, 'success');
    } catch {
      haptic.error();
      notify(messages.somethingWrong, 'error');
    }
    setBusy(false);
  };
  return (
    <Popup title="Easter Egg" onClose={onClose}>
      <img className="popup__art" src={art('money-token')} alt="" />
      <p>You found a hidden reward!</p>
      <p className="onb__reward"><MoneyIcon /> {formatMoney(status.pendingEasterReward)}</p>
      <button className={claimed ? 'btn btn--block btn--done' : 'btn btn--block'} disabled={busy} onClick={() => void claim()}>
        {claimed ? 'claimed' : 'claim'}
      </button>
    </Popup>
  );
};
