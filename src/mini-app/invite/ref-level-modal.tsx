import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import type { UserStatus } from '../../../engine/api-types.ts';
import { referralLevels } from '../../../engine/economy.ts';
import { formatMoney } from '../../../engine/format.ts';
import { canUpgradeReferral, nextReferralLevel } from '../../../engine/prices.ts';
import { $totalMoney } from '../../engine-client/signals.ts';
import { haptic } from '../../telegram.ts';
import { updateRefLevel } from '../api/calls.ts';
import { keys, useApi } from '../api/queries.ts';
import { useEngine } from '../engine-context.tsx';
import { messages, notify } from '../messages.ts';
import { MoneyIcon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';

/** The referral-limit upgrade modal (§2) over the 14 levels of §9. */
export const RefLevelModal = ({ status, onClose }: { status: UserStatus; onClose: () => void }) => {
  useSignals();
  const api = useApi();
  const engine = useEngine();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const level = status.refLevel;
  const next = nextReferralLevel(level);
  // §5: disabled when there is no next level or money is below the price.
  const enabled = canUpgradeReferral(level, $totalMoney.value) && !busy;
  const upgrade = async () => {
    if (!next) return;
    setBusy(true);
    try {
      await updateRefLevel(api, next.level);
      haptic.success();
      notify(messages.refUpgradeSuccess, 'success');
      await queryClient.invalidateQueries({ queryKey: keys.status });
      void Promise.resolve(engine.refresh()).catch(() => undefined);
    } catch {
      haptic.error();
      notify(messages.refUpgradeFailed, 'error');
    }
    setBusy(false);
  };
  return (
    <Popup title="Referral limit" onClose={onClose}>
      <p className="hint">Raise how many friends you can invite.</p>
      <div className="ref-levels" role="table" aria-label="Referral levels">
        {referralLevels.map((r) => (
          <div
            key={r.level}
            role="row"
            className={`ref-levels__row${r.level === level ? ' is-current' : ''}${r.level < level ? ' is-past' : ''}`}
          >
            <span role="cell">Lv {r.level}</span>
            <span role="cell">{r.friendLimit.toLocaleString('en-US')} friends</span>
            <span role="cell"><MoneyIcon /> {formatMoney(r.priceMoney, 0)}</span>
          </div>
        ))}
      </div>
      <button className="btn btn--block" disabled={!enabled} onClick={() => void upgrade()}>
        {next ? `Upgrade to Lv ${next.level}` : 'Max level'}
      </button>
    </Popup>
  );
};
