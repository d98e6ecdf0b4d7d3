import { Trans, useLingui } from '@lingui/react';
import type { FriendWait } from '../../../engine/wire/api-types.ts';
import { useEffect, useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { economy } from '../../../engine/rules/economy.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { money } from '../../../engine/rules/money.ts';
import { friendLimit } from '../../../engine/rules/prices.ts';
import { haptic, sharePreparedMessage, shareRefLink } from '../../telegram.ts';
import { useFriends, usePreparedInvite, useRefLink } from '../api/queries.ts';
import { useEngine, useStatus } from '../engine-context.tsx';
import { messageText, notify } from '../messages.ts';
import { art, Avatar, CoinIcon, Icon, MoneyIcon } from '../ui/art.tsx';
import { Pager } from '../ui/pager.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { RefLevelModal } from './ref-level-modal.tsx';
import './invite.css';

/** §9: what a pending friend still has to do for the invite bonus. */
const friendWaitId = (waits: readonly FriendWait[]): string =>
  waits.includes('clicks') ? (waits.includes('channel') ? 'app.invite.needsBoth' : 'app.invite.needsClicks') : 'app.invite.needsChannel';

const FriendsList = () => {
  const [page, setPage] = useState(1);
  const query = useFriends(page);
  const { _ } = useLingui();
  if (query.isPending) return <Skeleton count={3} height={56} />;
  if (query.isError) return <p className="empty" role="alert">{messageText('somethingWrong')}</p>;
  const { items, total } = query.data;
  if (total === 0) return <p className="empty">{_('app.invite.noFriends')}</p>;
  return (
    <>
      <div className="list" data-testid="friends">
        {items.map((f, i) => {
          // §9: the bonus waits for $100 clicked and the channel joined; older answers: $100 only.
          const waits = f.waitingFor ?? (money(f.totalEarn).lt(economy.pendingFriendThresholdDollars) ? ['clicks' as const] : []);
          const pending = waits.length > 0;
          return (
            <div key={`${f.teleUsername}-${i}`} className="card row invite__friend">
              <Avatar src={null} name={f.teleUsername} />
              <div className="row__main">
                <div className="row__title">{f.teleUsername}</div>
                <div className="row__sub"><CoinIcon /> {formatMoney(f.totalEarn)}{pending && <span className="invite__pending">{_('app.invite.pending')}</span>}</div>
                {pending && <div className="invite__waits" data-testid="friend-waits">{_(friendWaitId(waits), { dollars: economy.pendingFriendThresholdDollars })}</div>}
              </div>
              {/* What this friend earned the player: the invite bonus and the 5% shares. */}
              <strong className="invite__friend-bonus"><MoneyIcon /> <bdi>+{formatMoney(f.earned)}</bdi></strong>
            </div>
          );
        })}
      </div>
      <Pager page={page} total={total} onPage={setPage} />
    </>
  );
};

/**
 * The Invite button: the rich message the bot prepared (8.0 shareMessage) when there is one, else
 * the t.me share link, also when the client could not share it. A player who closes the dialog
 * said no: nothing else opens.
 */
/** The two invite cards: a friend's bonus, and a Telegram Premium friend's. */
const inviteCards = [
  { title: 'app.invite.inviteFriend', amount: economy.inviteBonusMoney, iconClass: 'invite__card-icon' },
  { title: 'app.invite.premiumFriend', amount: economy.inviteBonusPremiumMoney, iconClass: 'invite__card-icon invite__premium' },
] as const;

const shareInvite = async (preparedId: string | undefined, refLink: string | undefined): Promise<void> => {
  if (preparedId !== undefined && (await sharePreparedMessage(preparedId)) !== 'failed') return;
  if (refLink) shareRefLink(refLink);
};

/** Copy: the link to the clipboard, said with a toast either way (docs/mini-app.md, Invite as a rich message). */
const copyLink = async (link: string | undefined, _: (id: string) => string): Promise<void> => {
  if (!link) return;
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(link);
    haptic.success();
    notify(_('app.invite.copied'), 'success');
  } catch {
    haptic.error();
    notify(_('app.invite.copyFailed'), 'error');
  }
};

/** Invite (§2): hero, the +3 / +49 cards, the totals, friends 10 a page, and the invite button. */
export const InviteScreen = () => {
  useSignals();
  const { _ } = useLingui();
  const status = useStatus().data;
  const refLink = useRefLink();
  const prepared = usePreparedInvite();
  const friends = useFriends(1);
  const friendsPage1 = friends.data;
  // Total Bonus comes with the list's first page (`totalBonus`), so it and the friends' "+X" are
  // one answer and refresh together (docs/mini-app.md "Invite"). The status (friend count, level)
  // is asked again each time the list is fetched, through its one owner, the engine.
  const engine = useEngine();
  useEffect(() => {
    void Promise.resolve(engine.refresh()).catch(() => undefined);
  }, [engine, friends.dataUpdatedAt]);
  const [levelOpen, setLevelOpen] = useState(false);
  // The server counts pending friends over all pages; an older answer without it: count this page.
  const pendingCount =
    friendsPage1?.pending ?? friendsPage1?.items.filter((f) => money(f.totalEarn).lt(economy.pendingFriendThresholdDollars)).length ?? 0;
  const level = status?.refLevel ?? 1;
  const totalBonus = friendsPage1?.totalBonus ?? (status ? money(status.totalRef).plus(status.totalMoneyRef).toString() : undefined);
  return (
    <div className="invite">
      <section className="invite__hero">
        <img src={art('money-token')} alt="" />
        <h1 className="h1">{_('app.invite.title')}</h1>
        <p className="hint">{_('app.invite.subtitle')}</p>
      </section>
      <div className="invite__cards">
        {inviteCards.map(({ title, amount, iconClass }) => (
          <div key={title} className="card invite__card">
            <span className={iconClass}><Icon name="icon-telegram" size={26} /></span>
            <div>
              <div className="row__title">{_(title)}</div>
              <div className="row__sub"><MoneyIcon /> <Trans id="app.invite.forBoth" values={{ amount }} components={{ 0: <strong className="gold-text" /> }} /></div>
            </div>
          </div>
        ))}
      </div>
      <p className="hint invite__note">{_('app.invite.note', { dollars: economy.pendingFriendThresholdDollars })}</p>
      <div className="invite__totals">
        <div className="card"><span className="hint">{_('app.invite.totalBonus')}</span><strong data-testid="total-bonus"><MoneyIcon /> {totalBonus !== undefined ? formatMoney(totalBonus) : '…'}</strong></div>
        <div className="card"><span className="hint">{_('app.invite.pendingReferrals')}</span><strong>{pendingCount}</strong></div>
      </div>
      <p className="invite__share-note">{_('app.invite.share', { percent: economy.referralSharePercent })}</p>
      <div className="invite__list-head">
        <h2 className="h2">{_('app.invite.yourFriends', { count: status?.inviteCnt ?? 0, limit: friendLimit(level) })}</h2>
        <button className="btn btn--small btn--ghost" onClick={() => setLevelOpen(true)}>{_('app.invite.level', { level })}</button>
      </div>
      <FriendsList />
      <div className="invite__cta">
        <button
          className="btn btn--block"
          disabled={!refLink.data}
          onClick={() => {
            haptic.tap();
            void shareInvite(prepared.data?.id, refLink.data);
          }}
        >
          {_('app.invite.inviteFriend')}
        </button>
        <button
          className="btn btn--ghost invite__copy"
          aria-label={_('app.invite.copyLabel')}
          disabled={!refLink.data}
          onClick={() => void copyLink(refLink.data, _)}
        >
          {_('app.invite.copy')}
        </button>
      </div>
      {levelOpen && status && <RefLevelModal status={status} onClose={() => setLevelOpen(false)} />}
    </div>
  );
};
