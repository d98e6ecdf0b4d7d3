import { useLingui } from '@lingui/react';
import { useSignals } from '@preact/signals-react/runtime';
import type { UserStatus } from '../../../engine/wire/api-types.ts';
import { referralLevels } from '../../../engine/rules/economy.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { canUpgradeReferral, nextReferralLevel } from '../../../engine/rules/prices.ts';
import { $totalMoney } from '../../engine-client/signals.ts';
import { updateRefLevel } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { messages } from '../messages.ts';
import { MoneyIcon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';
import { useClaim } from '../use-claim.ts';

/** The referral-limit upgrade modal (§2) over the 14 levels of §9. */
export const RefLevelModal = ({ status, onClose }: { status: UserStatus; onClose: () => void }) => {
  useSignals();
  const api = useApi();
  const { _ } = useLingui();
  const { busy, run } = useClaim();
  const level = status.refLevel;
  const next = nextReferralLevel(level);
  // §5: disabled when there is no next level or money is below the price.
  const enabled = canUpgradeReferral(level, $totalMoney.value) && !busy;
  const upgrade = async () => {
    if (!next) return;
    await run(() => updateRefLevel(api, next.level), { success: messages.refUpgradeSuccess, failure: messages.refUpgradeFailed });
  };
  return (
    <Popup title={_('app.refLevel.title')} onClose={onClose}>
      <p className="hint">{_('app.refLevel.text')}</p>
      <div className="ref-levels" role="table" aria-label={_('app.refLevel.table')}>
        {referralLevels.map((r) => (
          <div
            key={r.level}
            role="row"
            className={`ref-levels__row${r.level === level ? ' is-current' : ''}${r.level < level ? ' is-past' : ''}`}
          >
            <span role="cell">{_('app.refLevel.level', { level: r.level })}</span>
            <span role="cell">{_('app.refLevel.friends', { count: r.friendLimit })}</span>
            <span role="cell"><MoneyIcon /> {formatMoney(r.priceMoney, 0)}</span>
          </div>
        ))}
      </div>
      <button className="btn btn--block" disabled={!enabled} onClick={() => void upgrade()}>
        {next ? _('app.refLevel.upgradeTo', { level: next.level }) : _('app.ui.maxLevel')}
      </button>
    </Popup>
  );
};
