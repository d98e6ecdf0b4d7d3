import { useLingui } from '@lingui/react';
import type { UserStatus } from '../../../engine/wire/api-types.ts';
import { economy } from '../../../engine/rules/economy.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { claimEaster } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { messages, notify } from '../messages.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';
import { useClaim } from '../use-claim.ts';

/** The Easter-egg popup (§2): the pending Easter reward and a claim / claimed button. */
export const EasterPopup = ({ status, onClose }: { status: UserStatus; onClose: () => void }) => {
  const api = useApi();
  const { _ } = useLingui();
  const { busy, run } = useClaim();
  const claimed = status.isClaimedEaster;
  const claim = async () => {
    if (claimed) return notify(messages.easterAlreadyClaimed, 'info');
    await run(() => claimEaster(api));
  };
  return (
    <Popup title={_('app.easter.title')} onClose={onClose}>
      <img className="popup__art" src={art('money-token')} alt="" />
      <p>{_('app.easter.text')}</p>
      {/* Once claimed the status has nothing pending: the sheet keeps showing what was claimed. */}
      <p className="onb__reward"><MoneyIcon /> {formatMoney(claimed ? economy.easterEggRewardMoney : status.pendingEasterReward)}</p>
      <button className={claimed ? 'btn btn--block btn--done' : 'btn btn--block'} disabled={busy} onClick={() => void claim()}>
        {claimed ? _('app.easter.claimed') : _('app.easter.claim')}
      </button>
    </Popup>
  );
};
