import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { LedgerEntry, PlayerDetail, ReferralEntry } from '../../../engine/wire/admin-types.ts';
import { get, post } from '../api.ts';
import { PagedPanel, usePaged } from '../paged-panel.tsx';
import { formatAmount, formatNumber, formatTime, useLoad } from '../use-load.ts';

const Freeze = ({ p, changed }: { p: PlayerDetail; changed(): void }) => {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const toggle = async () => {
    const frozen = p.frozenAt === null;
    if (frozen && !window.confirm(`Freeze ${p.teleUsername || p.id}? Their taps, claims and purchases will be refused.`)) return;
    try {
      await post(`/players/${p.id}/freeze`, { frozen, reason });
      setReason('');
      changed();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div className="inline-form">
      <input aria-label="Reason (kept in the audit log)" placeholder="Reason (kept in the audit log)" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
      <button type="button" className={`btn ${p.frozenAt === null ? 'btn--danger' : ''}`} onClick={() => void toggle()}>
        {p.frozenAt === null ? 'Freeze' : 'Unfreeze'}
      </button>
      {error && <span className="error">{error}</span>}
    </div>
  );
};

const PlayerPage = () => {
  // /players/:id (the router API the other trees use; useParams would grow their shared chunk).
  const id = useLocation().pathname.split('/')[2] ?? '';
  const detail = useLoad(() => get<PlayerDetail>(`/players/${id}`), id);
  const ledger = usePaged<LedgerEntry>(`/players/${id}/ledger`);
  const refs = usePaged<ReferralEntry>(`/players/${id}/referrals`);
  if (detail.error) return <p className="error">{detail.error}</p>;
  const p = detail.data;
  if (!p) return <p className="muted">Loading…</p>;
  const facts: [string, string][] = [
    ['Telegram id', p.id], ['Refcode', p.refcode], ['Language', p.languageCode ?? '—'], ['Joined', formatTime(p.createdAtMs)], ['Last active', formatTime(p.lastActiveMs)],
    ['$ balance', formatAmount(p.totalEarn)], ['MONEY', formatAmount(p.totalMoney)], ['Taps', formatNumber(p.totalClick)], ['Invites', formatNumber(p.inviteCnt)], ['Referral level', String(p.refLevel)],
    ['Invite bonuses', formatAmount(p.totalRef)], ['5 % shares', formatAmount(p.totalMoneyRef)], ['Referred by', p.referredBy ?? '—'], ['Telegram age', `${p.teleAge} days`],
    ['X', p.twUsername ? `@${p.twUsername} (${p.twAge} days)` : '—'], ['Premium', p.isPremium ? 'yes' : 'no'], ['Welcome claimed', p.isClaimedWelcome ? 'yes' : 'no'],
    ['Forecast', p.preWlComing > 0 ? `${p.preWlComing} days` : '—'], ['Handheld / Energy', `${p.fingerLevel} / ${p.energyLevel}`],
  ];
  return (
    <>
      <header className="page__head">
        <h1>{p.teleUsername || p.id} {p.frozenAt && <span className="badge badge--bad">frozen since {p.frozenAt.slice(0, 16).replace('T', ' ')}</span>}</h1>
        <Link to="/players">← Players</Link>
      </header>
      <section className="panel">
        <h2>Status</h2>
        <dl className="facts">{facts.map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{v}</dd></div>)}</dl>
        <Freeze p={p} changed={detail.reload} />
      </section>
      <PagedPanel
        title="Referrals"
        list={refs}
        head={<tr><th>Friend</th><th>Status</th><th className="num">Bonus</th><th className="num" title="The friend's dollars now (total_earn)">$ balance</th><th>Invited</th></tr>}
        row={(r) => <tr key={r.friendId}><td><Link to={`/players/${r.friendId}`}>{r.teleUsername || r.friendId}</Link></td><td>{r.status}</td><td className="num">{formatAmount(r.bonus)}</td><td className="num">{formatAmount(r.totalEarn)}</td><td>{formatTime(r.createdAtMs)}</td></tr>}
        columns={5}
        empty="No friends invited."
      />
      <PagedPanel
        title="Ledger"
        testId="ledger"
        list={ledger}
        head={<tr><th>#</th><th>When</th><th>Kind</th><th>Currency</th><th className="num">Amount</th><th>Reference</th></tr>}
        row={(l) => <tr key={l.id}><td>{l.id}</td><td>{formatTime(l.createdAtMs)}</td><td>{l.kind}</td><td>{l.currency}</td><td className="num">{l.amount}</td><td className="small">{l.reference ?? ''}</td></tr>}
        columns={6}
        empty="No ledger rows."
      />
    </>
  );
};

export default PlayerPage;
