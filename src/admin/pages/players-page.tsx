import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { CheatSignal, PlayerSummary } from '../../../engine/wire/admin-types.ts';
import { get } from '../api.ts';
import { formatAmount, formatTime, useLoad } from '../use-load.ts';

/** The newest players until a search is made; then what the search found (docs/admin.md "Players"). */
const Search = () => {
  const [term, setTerm] = useState('');
  const [query, setQuery] = useState('');
  const found = useLoad(() => get<{ items: PlayerSummary[] }>(query ? `/players?q=${encodeURIComponent(query)}` : '/players'), query);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuery(term.trim());
  };
  return (
    <section className="panel">
      <h2>Find a player</h2>
      <form className="inline-form" onSubmit={submit} role="search">
        <input aria-label="Telegram id, @username or refcode" placeholder="Telegram id, @username or refcode" value={term} onChange={(e) => setTerm(e.target.value)} maxLength={64} />
        <button className="btn" type="submit">Search</button>
      </form>
      <p className="muted small">An exact Telegram id or refcode, or the start of a username (“sat” finds @satoshi_fan, “fan” does not).</p>
      {found.error && <p className="error">{found.error}</p>}
      {!query && <h3>Newest players</h3>}
      {query && found.data?.items.length === 0 && <p className="muted">No player matches “{query}”.</p>}
      {found.data && found.data.items.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr><th>Player</th><th>Refcode</th><th className="num" title="Dollars now (total_earn): taps and passive income add, upgrades spend">$ balance</th><th className="num">MONEY</th><th>Last active</th><th>Status</th></tr>
            </thead>
            <tbody>
              {found.data.items.map((p) => (
                <tr key={p.id}>
                  <td><Link to={`/players/${p.id}`}>{p.teleUsername || p.id}</Link><div className="muted small">{p.id}</div></td>
                  <td><code>{p.refcode}</code></td>
                  <td className="num">{formatAmount(p.totalEarn)}</td>
                  <td className="num">{formatAmount(p.totalMoney)}</td>
                  <td>{formatTime(p.lastActiveMs)}</td>
                  <td>{p.frozenAt ? <span className="badge badge--bad">frozen</span> : <span className="badge">active</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
};

const Cheats = () => {
  const [sort, setSort] = useState<'clipped' | 'refused'>('clipped');
  const list = useLoad(() => get<{ items: CheatSignal[] }>(`/cheats?sort=${sort}`), sort);
  const header = (key: 'clipped' | 'refused', label: string) => (
    <th className="num">
      <button type="button" className={`sort${sort === key ? ' sort--on' : ''}`} onClick={() => setSort(key)} aria-pressed={sort === key}>
        {label} {sort === key ? '↓' : ''}
      </button>
    </th>
  );
  return (
    <section className="panel">
      <h2>Cheat signals</h2>
      <p className="muted small">Tap batches the server clipped (human-rate cap or energy) and taps it refused, per player, folded in every minute from recent click batches.</p>
      {list.error && <p className="error">{list.error}</p>}
      <div className="table-wrap">
        <table data-testid="cheats">
          <thead>
            <tr><th>Player</th>{header('clipped', 'Clipped batches')}{header('refused', 'Refused taps')}<th className="num">Accepted taps</th><th>Last batch</th><th>Status</th></tr>
          </thead>
          <tbody>
            {list.data?.items.map((c) => (
              <tr key={c.userId}>
                <td><Link to={`/players/${c.userId}`}>{c.teleUsername || c.userId}</Link></td>
                <td className="num">{c.clippedBatches}</td>
                <td className="num">{c.refusedTaps}</td>
                <td className="num">{c.acceptedTaps}</td>
                <td>{formatTime(c.lastAtMs)}</td>
                <td>{c.frozen ? <span className="badge badge--bad">frozen</span> : ''}</td>
              </tr>
            ))}
            {list.data?.items.length === 0 && <tr><td colSpan={6} className="muted">No signals yet.</td></tr>}
          </tbody>
        </table>
      </div>
    </section>
  );
};

const PlayersPage = () => (
  <>
    <header className="page__head"><h1>Players</h1></header>
    <Search />
    <Cheats />
  </>
);

export default PlayersPage;
