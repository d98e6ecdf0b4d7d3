import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { formatMoney } from '../../../engine/rules/format.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { useLeaderboard } from '../api/queries.ts';
import { useStatus } from '../engine-context.tsx';
import { appLocale } from '../locale.ts';
import { messageText } from '../messages.ts';
import { Avatar, Icon, MoneyIcon } from '../ui/art.tsx';
import { Pager } from '../ui/pager.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import './leaderboard.css';

/** The top three wear gold, silver and bronze. */
const RankBadge = ({ rank }: { rank: number }) =>
  rank <= 3 ? <span className={`board__medal board__medal--${rank}`}>{rank}</span> : <bdi>#{formatCount(appLocale(), rank)}</bdi>;

/** Leaderboard (§2): 10 a page; the player's own entry comes first and is their rank (§7). */
export const LeaderboardScreen = () => {
  const [page, setPage] = useState(1);
  const query = useLeaderboard(page);
  const me = useStatus().data;
  const { _ } = useLingui();
  return (
    <div className="board">
      <div className="board__hero">
        <span className="board__hero-icon"><Icon name="icon-leaderboard" size={40} /></span>
        <h1 className="h1">{_('app.board.title')}</h1>
      </div>
      {query.isPending ? (
        <Skeleton count={8} height={56} />
      ) : query.isError ? (
        <p className="empty" role="alert">{messageText('somethingWrong')}</p>
      ) : query.data.items.length === 0 ? (
        <p className="empty">{_('app.ui.noData')}</p>
      ) : (
        <>
          <ol className="list board__list">
            {query.data.items.map((entry, i) => {
              const mine = me !== undefined && entry.id === me.id;
              return (
                <li key={`${entry.id}-${i}`} className={`card row board__row${mine ? ' is-me' : ''}`}>
                  <span className="board__rank"><RankBadge rank={entry.rank} /></span>
                  <Avatar src={entry.teleAvatar} name={entry.teleUsername} />
                  <div className="row__main">
                    <div className="row__title board__name">
                      <span className="board__name-text" dir="auto" title={entry.teleUsername}>{entry.teleUsername}</span>
                      {mine && <span className="board__you">{_('app.board.you')}</span>}
                    </div>
                    {entry.twUsername && <div className="row__sub"><Icon name="icon-x" size={12} /><bdi>@{entry.twUsername}</bdi></div>}
                  </div>
                  <strong className="board__score"><MoneyIcon /> {formatMoney(entry.totalMoney)}</strong>
                </li>
              );
            })}
          </ol>
          <Pager page={page} total={query.data.total} onPage={setPage} />
        </>
      )}
    </div>
  );
};
