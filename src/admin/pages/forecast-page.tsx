import { useState } from 'react';
import type { ForecastSettlement } from '../../../engine/wire/admin-types.ts';
import { AdminApiError, get, post } from '../api.ts';
import { formatTime, useLoad } from '../use-load.ts';

interface Current {
  settlement: { launchDay: string; settledAtMs: number; settledBy: string; paidTotal: number; forecasts: number } | null;
}

/** Settles the wallet forecast with the same action as POST /public/settle-forecast (docs/admin.md). */
const ForecastPage = () => {
  const current = useLoad(() => get<Current>('/forecast'), 'forecast');
  const [day, setDay] = useState('');
  const [result, setResult] = useState<ForecastSettlement>();
  const [error, setError] = useState<string>();
  const settle = async () => {
    if (!window.confirm(`Set the wallet launch day to ${day} and pay 7,777 MONEY to every right forecast? The day cannot be changed later.`)) return;
    try {
      setResult(await post<ForecastSettlement>('/forecast/settle', { launchDay: day }));
      setError(undefined);
      current.reload();
    } catch (e) {
      setError(e instanceof AdminApiError ? e.message : String(e));
    }
  };
  const s = current.data?.settlement;
  return (
    <>
      <header className="page__head"><h1>Forecast</h1></header>
      <section className="panel">
        <h2>Wallet launch day</h2>
        <p className="muted small">A forecast of N days made on day D is right when D + N is the launch day (UTC). Each right forecast is paid 7,777 MONEY once, with 5 % to the player's referrer. Running it again pays nothing more.</p>
        {s ? (
          <dl className="facts">
            <div><dt>Launch day</dt><dd>{s.launchDay}</dd></div>
            <div><dt>Settled</dt><dd>{formatTime(s.settledAtMs)} by {s.settledBy}</dd></div>
            <div><dt>Right forecasts paid</dt><dd>{s.paidTotal} of {s.forecasts}</dd></div>
          </dl>
        ) : (
          <p>Not settled yet.</p>
        )}
        <div className="inline-form">
          <input type="date" aria-label="Launch day" value={day || s?.launchDay || ''} onChange={(e) => setDay(e.target.value)} />
          <button type="button" className="btn" disabled={!day && !s} onClick={() => void settle()}>{s ? 'Pay any unpaid right forecasts' : 'Settle'}</button>
        </div>
        {error && <p className="error" role="alert">{error}</p>}
        {result && <p role="status">Paid {result.paid} right forecast{result.paid === 1 ? '' : 's'} now; {result.paidTotal} in all.</p>}
      </section>
    </>
  );
};

export default ForecastPage;
