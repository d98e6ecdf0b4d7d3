import type { PublicStats } from '../../../engine/api-types.ts';
import { usePublicStats } from './public-stats.ts';

const tiles: readonly { key: keyof PublicStats; label: string }[] = [
  { key: 'totalClick', label: 'Total Clicks' },
  { key: 'totalPaticipant', label: 'Total Clickers' },
  { key: 'totalEarn', label: 'Total $MONEY' },
];

/** §2: three live tiles with a plus sign and compact numbers; zero when nothing ever arrived (§8). */
export const StatsTiles = ({ refreshMs }: { refreshMs?: number }) => {
  const { stats, isLoading, format } = usePublicStats(refreshMs);
  return (
    <section className="stats" aria-label="Live statistics" aria-busy={isLoading}>
      <dl className="stats-grid">
        {tiles.map(({ key, label }) => (
          <div className="stat-tile" key={key} data-stat={key}>
            <dt>{label}</dt>
            <dd>
              {isLoading ? (
                <span className="skeleton" data-testid="stat-skeleton">
                  <span className="visually-hidden">Loading</span>
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
