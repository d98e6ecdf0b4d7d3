import { useMemo } from 'react';
import type { AdminShop, Dashboard } from '../../../engine/wire/admin-types.ts';
import { get } from '../api.ts';
import { DayChart } from '../chart.tsx';
import { StarsRevenue } from '../stars-revenue.tsx';
import { formatTime, useLoad } from '../use-load.ts';

const nf = new Intl.NumberFormat('en-US');

const Tile = ({ label, value }: { label: string; value: number }) => (
  <div className="tile">
    <div className="tile__value">{nf.format(value)}</div>
    <div className="tile__label">{label}</div>
  </div>
);

/** Stars revenue on the dashboard: the last 30 days. */
const revenueDays = 30;

const pct = (a: number, b: number) => (b === 0 ? '—' : `${((a / b) * 100).toFixed(1)} %`);

/** Players, activity and the referral funnel from daily_stats (kept by the console job, docs/admin.md). */
const DashboardPage = () => {
  const { data, error } = useLoad(() => get<Dashboard>('/dashboard'), 'dashboard');
  const shop = useLoad(() => get<AdminShop>(`/shop?days=${revenueDays}`), 'shop');
  const days = useMemo(() => data?.days.map((d) => d.day) ?? [], [data]);
  const series = useMemo(() => {
    const col = (k: keyof Dashboard['days'][number]) => data?.days.map((d) => Number(d[k])) ?? [];
    return {
      players: [{ label: 'Players', values: col('totalPlayers'), color: '#c9a227' }],
      fresh: [{ label: 'New players', values: col('newPlayers'), color: '#2e7d32' }, { label: 'Daily active', values: col('activePlayers'), color: '#1565c0' }],
      taps: [{ label: 'Taps', values: col('taps'), color: '#6a1b9a' }],
      ads: [{ label: 'Ads watched', values: col('adsWatched'), color: '#ef6c00' }, { label: 'Invited', values: col('invited'), color: '#00838f' }, { label: 'Bonus paid', values: col('bonusPaid'), color: '#ad1457' }],
    };
  }, [data]);
  if (error) return <p className="error">{error}</p>;
  if (!data) return <p className="muted">Loading…</p>;
  const today = data.days.at(-1);
  const f = data.funnel;
  return (
    <>
      <header className="page__head">
        <h1>Dashboard</h1>
        <span className="muted">Aggregates refreshed {formatTime(data.updatedAtMs)}</span>
      </header>
      <div className="tiles">
        <Tile label="Players" value={today?.totalPlayers ?? 0} />
        <Tile label="New today" value={today?.newPlayers ?? 0} />
        <Tile label="Active today" value={today?.activePlayers ?? 0} />
        <Tile label="Taps today" value={today?.taps ?? 0} />
        <Tile label="Ads today" value={today?.adsWatched ?? 0} />
      </div>
      <section className="panel">
        <h2>Referral conversion</h2>
        <div className="funnel" data-testid="funnel">
          <div className="funnel__step"><b>{nf.format(f.invited)}</b> invited</div>
          <div className="funnel__arrow">→ {pct(f.reached100, f.invited)} →</div>
          <div className="funnel__step"><b>{nf.format(f.reached100)}</b> reached $100</div>
          <div className="funnel__arrow">→ {pct(f.bonusPaid, f.reached100)} →</div>
          <div className="funnel__step"><b>{nf.format(f.bonusPaid)}</b> bonus paid</div>
        </div>
      </section>
      {days.length === 0 ? (
        <p className="muted">No days aggregated yet: the job runs every minute.</p>
      ) : (
        <div className="charts">
          <DayChart title="Players in total" days={days} series={series.players} />
          <DayChart title="New and daily active players" days={days} series={series.fresh} />
          <DayChart title="Taps per day" days={days} series={series.taps} />
          <DayChart title="Ads watched and referrals per day" days={days} series={series.ads} />
        </div>
      )}
      {shop.data && <StarsRevenue revenue={shop.data.revenue} itemIds={shop.data.items.map((i) => i.id)} days={revenueDays} today={shop.data.today} />}
    </>
  );
};

export default DashboardPage;
