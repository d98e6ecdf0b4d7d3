import { useState } from 'react';
import type { AuditEntry, Page } from '../../../engine/wire/admin-types.ts';
import { get } from '../api.ts';
import { formatTime, useLoad } from '../use-load.ts';

const show = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** Every admin action, newest first, 50 a page; the table refuses UPDATE and DELETE (docs/admin.md). */
const AuditPage = () => {
  const [cursor, setCursor] = useState<string | null>(null);
  const page = useLoad(() => get<Page<AuditEntry>>(`/audit${cursor ? `?before=${cursor}` : ''}`), cursor ?? '');
  return (
    <>
      <header className="page__head"><h1>Audit log</h1><span className="muted small">Append-only: the database refuses changes.</span></header>
      {page.error && <p className="error">{page.error}</p>}
      <div className="table-wrap panel">
        <table data-testid="audit">
          <thead><tr><th>When</th><th>Who</th><th>Action</th><th>Target</th><th>Before</th><th>After</th></tr></thead>
          <tbody>
            {page.data?.items.map((a) => (
              <tr key={a.id}>
                <td className="nowrap">{formatTime(a.atMs)}</td>
                <td>{a.adminId === '0' ? 'API key' : a.adminId}</td>
                <td><code>{a.action}</code></td>
                <td>{a.target}</td>
                <td className="json">{show(a.before)}</td>
                <td className="json">{show(a.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="pager">
        <button type="button" className="btn btn--ghost" disabled={cursor === null} onClick={() => setCursor(null)}>Newest</button>
        <button type="button" className="btn btn--ghost" disabled={!page.data?.next} onClick={() => setCursor(page.data?.next ?? null)}>Older</button>
      </div>
    </>
  );
};

export default AuditPage;
