import { useLingui } from '@lingui/react';
import { economy, type BoostKey } from '../../../engine/rules/economy.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { boostCatalogue } from '../../../engine/rules/economy.ts';
import { boostTitle } from '../boost/boost-model.ts';
import { appLocale } from '../locale.ts';
import { art, MoneyIcon } from '../ui/art.tsx';
import { formatCountdown, useDaily, useTimeLeft } from './use-daily.ts';
import './daily.css';

/**
 * The day's combo on Boost's Upgrade tab (docs/rules.md §15.2): three slots, filled with the cards
 * the player has found today, in the order found. The others stay secret: the server never says
 * which they are, so neither can this panel.
 */
export const ComboPanel = () => {
  const { _ } = useLingui();
  const daily = useDaily();
  const left = formatCountdown(useTimeLeft());
  if (!daily) return null;
  const { found, complete, reward } = daily.combo;
  const slots = Array.from({ length: economy.dailyComboCards }, (_, i) => found[i] as BoostKey | undefined);
  return (
    <section className={complete ? 'card combo is-complete' : 'card combo'} aria-label={_('app.daily.combo')} data-testid="combo-panel">
      <header className="combo__head">
        <img className="combo__art" src={art('daily-combo')} alt="" />
        <div className="combo__titles">
          <strong>{_('app.daily.combo')}</strong>
          <span className="hint">{complete ? _('app.daily.combo.complete') : _('app.daily.combo.text', { count: formatCount(appLocale(), economy.dailyComboCards) })}</span>
        </div>
        <span className="combo__reward"><MoneyIcon /> <bdi>+{reward}</bdi></span>
      </header>
      <ol className="combo__slots">
        {slots.map((key, i) =>
          key !== undefined && key in boostCatalogue ? (
            <li key={i} className="combo__slot is-found" data-testid={`combo-slot-${i + 1}`}>
              <img src={art(boostCatalogue[key].image)} alt="" />
              <span>{boostTitle(_, key)}</span>
              <span className="combo__tick" aria-hidden="true">✓</span>
            </li>
          ) : (
            <li key={i} className="combo__slot" data-testid={`combo-slot-${i + 1}`} aria-label={_('app.daily.combo.secret')}>
              <span className="combo__question" aria-hidden="true">?</span>
            </li>
          ),
        )}
      </ol>
      <footer className="combo__foot hint">
        <span>{_('app.daily.combo.found', { found: formatCount(appLocale(), found.length), count: formatCount(appLocale(), economy.dailyComboCards) })}</span>
        <span className="combo__time">{left}</span>
      </footer>
    </section>
  );
};
