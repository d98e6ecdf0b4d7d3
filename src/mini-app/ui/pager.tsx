import { useLingui } from '@lingui/react';
import { economy } from '../../../engine/rules/economy.ts';

/** Prev/next paging for the 10-a-page lists (friends, leaderboard; §9). */
export const Pager = ({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) => {
  const { _ } = useLingui();
  const pages = Math.max(1, Math.ceil(total / economy.pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={_('app.ui.pages')}>
      <button className="btn btn--small btn--ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>{_('app.ui.prev')}</button>
      <bdi className="hint">{page} / {pages}</bdi>
      <button className="btn btn--small btn--ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>{_('app.ui.next')}</button>
    </nav>
  );
};
