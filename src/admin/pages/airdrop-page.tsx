import { useState } from 'react';
import { Link } from 'react-router-dom';
import { AdminApiError, get, post } from '../api.ts';
import { countOf, formatNumber, formatTime, useLoad } from '../use-load.ts';

/** A built round as the console API answers it (the operator API's round, docs/airdrop.md). */
interface Round {
  round: number;
  startFrom: number;
  expireAt: number;
  wallets: number;
  totalAmount: string;
  merkleRoot: string | null;
  merkleRootInt: string | null;
  excludedMoney: 'unminted' | 'redistributed';
  excludedPlayers: number;
  excludedAmount: string;
  excludedReasons: Record<string, number>;
  created?: boolean;
}

/** Jetton units (9 decimals) as whole MONEY with its fraction, without floats. */
const money = (units: string): string => {
  const padded = units.padStart(10, '0');
  const whole = padded.slice(0, -9).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = padded.slice(-9).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
};

const unixOf = (local: string): number => Math.floor(new Date(`${local}Z`).getTime() / 1000);

/**
 * The Great Snapshot (docs/airdrop.md): freezes every eligible allocation into a round, the same
 * action as POST /public/airdrop/snapshot. The Merkle root goes into the jetton master.
 */
const AirdropPage = () => {
  const current = useLoad(() => get<{ latest: Round | null }>('/airdrop'), 'airdrop');
  const [round, setRound] = useState('');
  const [startFrom, setStartFrom] = useState('');
  const [expireAt, setExpireAt] = useState('');
  const [excludedMoney, setExcludedMoney] = useState<Round['excludedMoney']>('unminted');
  const open = useLoad(() => get<{ openReviews: number }>('/integrity/flags?limit=1&state=review'), 'open-reviews');
  const [result, setResult] = useState<Round>();
  const [error, setError] = useState<string>();
  const latest = current.data?.latest ?? null;
  const nextRound = String((latest?.round ?? 0) + 1);
  const snapshot = async () => {
    const n = Number(round || nextRound);
    const openReviews = open.data?.openReviews ?? 0;
    const pending = openReviews > 0 ? ` ${openReviews} players are still under review, undecided: they are paid.` : '';
    if (!window.confirm(`Take the snapshot of round ${n}? Every eligible allocation is frozen into it; a built round never changes.${pending}`)) return;
    try {
      setResult(await post<Round>('/airdrop/snapshot', { round: n, startFrom: unixOf(startFrom), expireAt: unixOf(expireAt), excludedMoney }));
      setError(undefined);
      current.reload();
    } catch (e) {
      setError(e instanceof AdminApiError ? e.message : String(e));
    }
  };
  const shown = result ?? latest;
  return (
    <>
      <header className="page__head"><h1>Airdrop</h1></header>
      <section className="panel" data-testid="airdrop-slot">
        <h2>The Great Snapshot</h2>
        <p className="muted small">
          Eligible: a linked TON wallet, a MONEY balance above 0, not frozen, not excluded by the <Link to="/review">review</Link>. The allocation is the balance at the snapshot, in jetton units (9
          decimals). Running a round again changes nothing.
        </p>
        {open.data && open.data.openReviews > 0 && (
          <p className="error small" role="status">{countOf(open.data.openReviews, 'player is', 'players are')} under review, undecided: decide them before the snapshot.</p>
        )}
        {shown ? (
          <dl className="facts">
            <div><dt>Round</dt><dd>{shown.round}{result ? (result.created ? ' (built now)' : ' (already built)') : ''}</dd></div>
            <div><dt>Wallets</dt><dd>{formatNumber(shown.wallets)}</dd></div>
            <div><dt>Total</dt><dd>{money(shown.totalAmount)} MONEY</dd></div>
            <div><dt>Claims</dt><dd>{formatTime(shown.startFrom * 1000)} → {formatTime(shown.expireAt * 1000)}</dd></div>
            <div><dt>Merkle root</dt><dd className="mono">{shown.merkleRoot ?? '—'}</dd></div>
            <div>
              <dt>Excluded</dt>
              <dd>
                {countOf(shown.excludedPlayers, 'player', 'players')}, {money(shown.excludedAmount)} MONEY {shown.excludedMoney}
                {Object.keys(shown.excludedReasons).length > 0 && (
                  <div className="muted small">{Object.entries(shown.excludedReasons).map(([code, n]) => `${code} ${n}`).join(' · ')}</div>
                )}
              </dd>
            </div>
          </dl>
        ) : (
          <p>No snapshot yet.</p>
        )}
        <div className="inline-form inline-form--fields">
          <label className="field"><span className="field__label">Round</span>
            <input type="number" min={1} aria-label="Round" placeholder={nextRound} value={round} onChange={(e) => setRound(e.target.value)} />
          </label>
          <label className="field"><span className="field__label">Claims open (UTC)</span>
            <input type="datetime-local" aria-label="Claims open (UTC)" value={startFrom} onChange={(e) => setStartFrom(e.target.value)} />
          </label>
          <label className="field"><span className="field__label">Claims close (UTC)</span>
            <input type="datetime-local" aria-label="Claims close (UTC)" value={expireAt} onChange={(e) => setExpireAt(e.target.value)} />
          </label>
          <label className="field"><span className="field__label">Excluded players’ MONEY</span>
            <select aria-label="Excluded players’ MONEY" value={excludedMoney} onChange={(e) => setExcludedMoney(e.target.value as Round['excludedMoney'])}>
              <option value="unminted">left unminted</option>
              <option value="redistributed">redistributed pro rata</option>
            </select>
          </label>
          <button type="button" className="btn" disabled={!startFrom || !expireAt} onClick={() => void snapshot()}>Take snapshot</button>
        </div>
        {error && <p className="error" role="alert">{error}</p>}
      </section>
    </>
  );
};

export default AirdropPage;
