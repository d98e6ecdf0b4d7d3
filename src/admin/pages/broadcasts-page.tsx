import { useEffect, useState } from 'react';
import type { AdminBroadcast, BroadcastButton, BroadcastSegment } from '../../../engine/wire/admin-types.ts';
import { AdminApiError, get, post } from '../api.ts';
import { formatTime, useLoad } from '../use-load.ts';

type SegmentKind = BroadcastSegment['kind'];

const segmentText = (s: BroadcastSegment): string =>
  s.kind === 'all' ? 'everyone' : s.kind === 'language' ? `language ${s.languageCode}` : s.kind === 'active' ? `active in the last ${s.days} days` : `test list (${s.userIds.length})`;

/** How the message looks in Telegram: a bubble with one inline button per row. */
const Preview = ({ message, btns }: { message: string; btns: BroadcastButton[] }) => (
  <figure className="tg" aria-label="Preview in Telegram">
    <div className="tg__bubble" data-testid="broadcast-preview">{message || <span className="muted">Your message…</span>}</div>
    {btns.filter((b) => b.btnText).map((b, i) => (
      <div key={i} className="tg__button">{b.btnText}{b.btnType === 'url' ? ' ↗' : ''}</div>
    ))}
  </figure>
);

const Compose = ({ sent }: { sent(): void }) => {
  const [message, setMessage] = useState('');
  const [btns, setBtns] = useState<BroadcastButton[]>([]);
  const [kind, setKind] = useState<SegmentKind>('test');
  const [languageCode, setLanguage] = useState('en');
  const [days, setDays] = useState('7');
  const [userIds, setUserIds] = useState('');
  const [error, setError] = useState<{ field?: string | undefined; message: string }>();
  const segment = (): BroadcastSegment =>
    kind === 'all' ? { kind } : kind === 'language' ? { kind, languageCode } : kind === 'active' ? { kind, days: Number(days) } : { kind, userIds: userIds.split(/[\s,]+/).filter(Boolean) };
  const send = async () => {
    const s = segment();
    if (!window.confirm(`Send this message to ${segmentText(s)}?`)) return;
    try {
      await post('/broadcasts', { message, btns, segment: s });
      setError(undefined);
      setMessage('');
      sent();
    } catch (e) {
      setError(e instanceof AdminApiError ? { field: e.field, message: e.message } : { message: String(e) });
    }
  };
  const setBtn = (i: number, patch: Partial<BroadcastButton>) => setBtns((list) => list.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  const bad = (field: string) => (error?.field?.startsWith(field) ? error.message : undefined);
  return (
    <section className="panel">
      <h2>Compose</h2>
      <div className="editor__grid">
        <div className="form">
          <label className={`field${bad('message') ? ' field--bad' : ''}`}>
            <span className="field__label">Message (up to 4,096 characters)</span>
            <textarea rows={5} value={message} onChange={(e) => setMessage(e.target.value)} maxLength={4096} />
            {bad('message') && <span className="field__error">{bad('message')}</span>}
          </label>
          {btns.map((b, i) => (
            <div key={i} className="form__row btn-row">
              <select aria-label="Button kind" value={b.btnType} onChange={(e) => setBtn(i, { btnType: e.target.value })}>
                <option value="url">link</option>
                <option value="web_app">mini-app</option>
              </select>
              <input aria-label="Button text" placeholder="Text" value={b.btnText} onChange={(e) => setBtn(i, { btnText: e.target.value })} maxLength={64} />
              <input aria-label="Button link" placeholder="https://…" value={b.btnLink} onChange={(e) => setBtn(i, { btnLink: e.target.value })} />
              <button type="button" className="icon-btn" aria-label="Remove button" onClick={() => setBtns((l) => l.filter((_, j) => j !== i))}>×</button>
            </div>
          ))}
          {bad('btns') && <span className="field__error">{bad('btns')}</span>}
          <button type="button" className="btn btn--ghost" disabled={btns.length >= 10} onClick={() => setBtns((l) => [...l, { btnType: 'url', btnText: '', btnLink: '' }])}>Add a button</button>
          <div className="form__row">
            <label className="field">
              <span className="field__label">Send to</span>
              <select value={kind} onChange={(e) => setKind(e.target.value as SegmentKind)}>
                <option value="test">a test list</option>
                <option value="language">players of a language</option>
                <option value="active">players active in the last N days</option>
                <option value="all">everyone</option>
              </select>
            </label>
            {kind === 'language' && <label className="field"><span className="field__label">Language code</span><input value={languageCode} onChange={(e) => setLanguage(e.target.value)} /></label>}
            {kind === 'active' && <label className="field"><span className="field__label">Days</span><input inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} /></label>}
            {kind === 'test' && <label className="field"><span className="field__label">Telegram ids</span><input placeholder="123, 456" value={userIds} onChange={(e) => setUserIds(e.target.value)} /></label>}
          </div>
          {bad('segment') && <span className="field__error">{bad('segment')}</span>}
          {error && !error.field && <p className="error">{error.message}</p>}
          <div className="actions"><button type="button" className="btn" onClick={() => void send()}>Send</button></div>
        </div>
        <Preview message={message} btns={btns} />
      </div>
    </section>
  );
};

const Progress = ({ b }: { b: AdminBroadcast }) => {
  const part = (n: number, cls: string) => (b.total === 0 || n === 0 ? null : <span className={`bar__${cls}`} style={{ width: `${(n / b.total) * 100}%` }} />);
  return (
    <div className="bar" role="progressbar" aria-valuemin={0} aria-valuemax={b.total} aria-valuenow={b.total - b.pending}>
      {part(b.sent, 'sent')}{part(b.failed + b.uncertain, 'failed')}{part(b.blocked, 'blocked')}{part(b.cancelled, 'cancelled')}
    </div>
  );
};

const BroadcastsPage = () => {
  const list = useLoad(() => get<{ items: AdminBroadcast[] }>('/broadcasts'), 'broadcasts');
  const running = list.data?.items.some((b) => b.finishedAtMs === null) ?? false;
  const { reload } = list;
  // Live progress: poll every 2 s while a broadcast is still sending.
  useEffect(() => {
    if (!running) return;
    const t = setInterval(reload, 2_000);
    return () => clearInterval(t);
  }, [running, reload]);
  const cancel = async (id: number) => {
    if (!window.confirm(`Cancel broadcast ${id}? Messages not yet sent are dropped.`)) return;
    await post(`/broadcasts/${id}/cancel`).catch(() => {});
    reload();
  };
  return (
    <>
      <header className="page__head"><h1>Broadcasts</h1></header>
      <Compose sent={reload} />
      <section className="panel">
        <h2>Recent</h2>
        {list.error && <p className="error">{list.error}</p>}
        {list.data?.items.length === 0 && <p className="muted">Nothing sent yet.</p>}
        <ul className="broadcasts">
          {list.data?.items.map((b) => (
            <li key={b.id} className="broadcast" data-testid={`broadcast-${b.id}`}>
              <div className="broadcast__head">
                <b>#{b.id}</b> <span className="muted">{formatTime(b.createdAtMs)} · {segmentText(b.segment)}</span>
                {b.finishedAtMs === null ? (
                  <button type="button" className="btn btn--danger btn--small" onClick={() => void cancel(b.id)}>Cancel</button>
                ) : (
                  <span className="badge">{b.cancelledAtMs ? 'cancelled' : 'finished'}</span>
                )}
              </div>
              <p className="broadcast__text">{b.message}</p>
              <Progress b={b} />
              <div className="small legend">
                <span className="dot dot--sent" /> sent {b.sent} <span className="dot dot--failed" /> failed {b.failed + b.uncertain} <span className="dot dot--blocked" /> blocked {b.blocked}{' '}
                <span className="dot dot--cancelled" /> cancelled {b.cancelled} · pending {b.pending} of {b.total}
              </div>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
};

export default BroadcastsPage;
