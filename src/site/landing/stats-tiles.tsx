import { useLingui } from '@lingui/react';
import type { PublicStats } from '../../../engine/wire/api-types.ts';
import { usePublicStats } from './public-stats.ts';

const tiles: readonly (keyof PublicStats)[] = ['totalClick', 'totalPaticipant', 'totalEarn'];

/** §2: three live tiles with a plus sign and compact numbers; zero when nothing ever arrived (§8). */
export const StatsTiles = ({ refreshMs }: { refreshMs?: number }) => {
  const { _ } = useLingui();
  const { stats, isLoading, format } = usePublicStats(refreshMs);
  return (
    <section className="stats" aria-label={_('site.stats.label')} aria-busy={isLoading}>
      <dl className="stats-grid">
        {tiles.map((key) => (
          <div className="stat-tile" key={key} data-stat={key}>
            <dt>{_(`site.stats.${key}`)}</dt>
            <dd>
              {isLoading ? (
                <span className="skeleton" data-testid="stat-skeleton">
                  <span className="visually-hidden">{_('site.stats.loading')}</span>
                </span>
              ) : (
                <span className="stat-value">
                  <span className="stat-plus">+</span>
                  {format(stats?.[key] ?? 0)}
                </span>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
};
