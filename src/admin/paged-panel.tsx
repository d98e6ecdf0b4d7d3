/** The console's keyset-paged tables (the player page's referrals and ledger): the list's state and its panel. */
import { useState, type ReactNode } from 'react';
import type { Page } from '../../engine/wire/admin-types.ts';
import { get } from './api.ts';
import { useLoad } from './use-load.ts';

/** A keyset-paged list: "Older" follows the server's cursor; "Newest" goes back to the start. */
export const usePaged = <T,>(path: string) => {
  const [cursor, setCursor] = useState<string | null>(null);
  const page = useLoad(() => get<Page<T>>(`${path}${cursor ? `?before=${cursor}` : ''}`), `${path}|${cursor ?? ''}`);
  return { page, older: () => page.data?.next && setCursor(page.data.next), newest: () => setCursor(null), atStart: cursor === null };
};

const Pager = ({ atStart, hasMore, older, newest }: { atStart: boolean; hasMore: boolean; older(): void; newest(): void }) => (
  <div className="pager">
    <button type="button" className="btn btn--ghost" disabled={atStart} onClick={newest}>Newest</button>
    <button type="button" className="btn btn--ghost" disabled={!hasMore} onClick={older}>Older</button>
  </div>
);

/** A panel of one keyset-paged table: its rows (a line when there are none) and the pager. */
export const PagedPanel = <T,>({ title, testId, list, head, row, columns, empty }: { title: string; testId?: string; list: ReturnType<typeof usePaged<T>>; head: ReactNode; row(item: T): ReactNode; columns: number; empty: string }) => (
  <section className="panel">
    <h2>{title}</h2>
    <div className="table-wrap">
      <table data-testid={testId}>
        <thead>{head}</thead>
        <tbody>
          {list.page.data?.items.map(row)}
          {list.page.data?.items.length === 0 && <tr><td colSpan={columns} className="muted">{empty}</td></tr>}
        </tbody>
      </table>
    </div>
    <Pager atStart={list.atStart} hasMore={Boolean(list.page.data?.next)} older={list.older} newest={list.newest} />
  </section>
);
