import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AirdropFlagRow, AirdropFlagsPage, AirdropReviewState } from '../../../engine/wire/airdrop-review.ts';
import { AdminApiError, get, post } from '../api.ts';
import { countOf, formatTime, useLoad } from '../use-load.ts';

type Filter = AirdropReviewState | 'all';
const filters: { key: Filter; label: string }[] = [
  { key: 'review', label: 'Under review' },
  { key: 'excluded', label: 'Excluded' },
  { key: 'clear', label: 'Cleared' },
  { key: 'all', label: 'All flagged' },
];

const badgeOf = (state: AirdropReviewState) =>
  state === 'review' ? <span className="badge badge--warn">under review</span> : state === 'excluded' ? <span className="badge badge--bad">excluded</span> : <span className="badge">cleared</span>;

/** One flagged player: the evidence behind each reason, and the decisions an operator can take (each with its audit row). */
const FlagRow = ({ flag, onDecided }: { flag: AirdropFlagRow; onDecided(row: AirdropFlagRow): void }) => {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const act = async (path: 'decision' | 'appeal', body: Record<string, string>) => {
    try {
      onDecided(await post<AirdropFlagRow>(`/integrity/players/${flag.userId}/${path}`, { ...body, ...(note.trim() ? { note: note.trim() } : {}) }));
      setNote('');
      setError(undefined);
    } catch (e) {
      setError(e instanceof AdminApiError ? e.message : String(e));
    }
  };
  return (
    <tr data-testid="flag-row">
      <td className="num"><strong>{flag.score}</strong></td>
      <td>
        <Link to={`/players/${flag.userId}`}>{flag.teleUsername || flag.userId}</Link>
        <div className="muted small">{flag.userId} · {flag.totalMoney} MONEY</div>
        <div>{badgeOf(flag.state)}{flag.appeal && <span className="muted small"> appeal {flag.appeal}</span>}</div>
      </td>
      <td>
        <ul className="evidence">
          {flag.evidence.map((e) => (
            <li key={e.code} className={e.code === 'trust' ? 'evidence__trust' : ''}>
              <code>{e.code}</code> {e.text}
            </li>
          ))}
        </ul>
        {flag.decidedAtMs !== null && (
          <p className="muted small">
            {flag.decision === 'excluded' ? 'Excluded' : 'Cleared'} {formatTime(flag.decidedAtMs)}{flag.decisionNote ? ` — “${flag.decisionNote}”` : ''}
          </p>
        )}
      </td>
      <td>
        <div className="review-actions">
          <input aria-label={`Note for ${flag.userId}`} placeholder="Note for the record" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
          <div className="actions">
            {flag.state !== 'clear' && <button type="button" className="btn btn--ghost" onClick={() => void act('decision', { decision: 'clear' })}>Clear</button>}
            {flag.state !== 'excluded' && <button type="button" className="btn btn--danger" onClick={() => void act('decision', { decision: 'exclude' })}>Exclude</button>}
          </div>
          {flag.state !== 'clear' && (
            <div className="actions">
              <span className="muted small">Appeal:</span>
              <button type="button" className="btn btn--ghost btn--tiny" onClick={() => void act('appeal', { outcome: 'overturned' })}>Overturn</button>
              <button type="button" className="btn btn--ghost btn--tiny" onClick={() => void act('appeal', { outcome: 'upheld' })}>Uphold</button>
            </div>
          )}
          {error && <p className="error small" role="alert">{error}</p>}
        </div>
      </td>
    </tr>
  );
};

/**
 * The integrity review before the airdrop snapshot (docs/airdrop.md "Integrity review"): flagged
 * players, highest score first, with the evidence behind each reason. Clearing, excluding and
 * deciding an appeal are each one action on the server, recorded in the audit log.
 */
const ReviewPage = () => {
  const [filter, setFilter] = useState<Filter>('review');
  const [decided, setDecided] = useState<Record<string, AirdropFlagRow>>({});
  const query = (cursor?: string) => `/integrity/flags?limit=50${filter === 'all' ? '' : `&state=${filter}`}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const first = useLoad(() => get<AirdropFlagsPage<AirdropFlagRow> & { openReviews: number }>(query()), filter);
  const [more, setMore] = useState<AirdropFlagRow[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const cursor = next === undefined ? (first.data?.nextCursor ?? null) : next;
  const loadMore = async () => {
    if (cursor === null) return;
    const page = await get<AirdropFlagsPage<AirdropFlagRow>>(query(cursor));
    setMore((m) => [...m, ...page.items]);
    setNext(page.nextCursor);
  };
  const choose = (f: Filter) => {
    setFilter(f);
    setMore([]);
    setNext(undefined);
  };
  const rows = [...(first.data?.items ?? []), ...more].map((r) => decided[r.userId] ?? r);
  return (
    <>
      <header className="page__head">
        <h1>Airdrop review</h1>
        {first.data && <span className="muted">{countOf(first.data.openReviews, 'open review', 'open reviews')} to decide before the snapshot</span>}
      </header>
      <section className="panel">
        <p className="muted small">
          Signals are computed by a job from recent play, devices and invites; a score at the review threshold puts a player under review. Players see that they are under review and which kind of
          reason applies, never the numbers. Clear, exclude or decide an appeal: each decision is written to the audit log.
        </p>
        <div className="tabs" role="tablist">
          {filters.map((f) => (
            <button key={f.key} type="button" role="tab" aria-selected={filter === f.key} className={`tab${filter === f.key ? ' tab--on' : ''}`} onClick={() => choose(f.key)}>
              {f.label}
            </button>
          ))}
        </div>
        {first.error && <p className="error">{first.error}</p>}
        <div className="table-wrap">
          <table data-testid="flags" className="flags-table">
            <thead>
              <tr><th className="num">Score</th><th>Player</th><th>Evidence</th><th>Decision</th></tr>
            </thead>
            <tbody>
              {rows.map((f) => (
                <FlagRow key={f.userId} flag={f} onDecided={(row) => setDecided((d) => ({ ...d, [row.userId]: row }))} />
              ))}
              {first.data && rows.length === 0 && <tr><td colSpan={4} className="muted">Nobody here.</td></tr>}
            </tbody>
          </table>
        </div>
        {cursor !== null && first.data && (
          <button type="button" className="btn btn--ghost" onClick={() => void loadMore()}>More</button>
        )}
      </section>
    </>
  );
};

export default ReviewPage;
