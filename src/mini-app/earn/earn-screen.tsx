import { useLingui } from '@lingui/react';
import { useState } from 'react';
import type { Task, TaskType } from '../../../engine/wire/api-types.ts';
import { useTasks } from '../api/queries.ts';
import { messageText } from '../messages.ts';
import { art } from '../ui/art.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { Tabs } from '../ui/tabs.tsx';
import { Achievements } from './achievements.tsx';
import { AdsRow } from './ads-row.tsx';
import { ExchangeTaskRow } from './exchange-task-row.tsx';
import { TaskRow } from './task-row.tsx';
import { adsDone, isExchangeTask } from './task-rules.ts';
import './earn.css';

const mainTabs = [
  { id: 'tasks', label: 'app.earn.tasks' },
  { id: 'achievements', label: 'app.earn.achievements' },
] as const;

const subTabs = [
  { id: 'social', label: 'app.earn.social' },
  { id: 'invite', label: 'app.earn.invite' },
  { id: 'partner', label: 'app.earn.partner' },
  { id: 'airdrop', label: 'app.earn.airdrop' },
] as const;
type SubTab = (typeof subTabs)[number]['id'];

// §2: Social lists DAILY_TASK (social, TASK1 and the ads task), Invite lists INVITE_TASK.
const subTabType: Record<Exclude<SubTab, 'airdrop'>, TaskType> = { social: 'DAILY_TASK', invite: 'INVITE_TASK', partner: 'EXCHANGE' };

const renderTask = (task: Task) =>
  isExchangeTask(task) ? <ExchangeTaskRow key={task.id} task={task} /> : <TaskRow key={task.id} task={task} />;

/** The Social list: the "Daily Oppotunity" ads row first, after the others once done 10 times (§4). */
const SocialList = () => {
  const daily = useTasks(subTabType.social);
  useLingui();
  if (daily.isPending) return <Skeleton count={4} />;
  if (daily.isError) return <p className="empty" role="alert">{messageText('somethingWrong')}</p>;
  const adsTask = daily.data.find((t) => t.type === 'ADS');
  const rows = daily.data.filter((t) => t.type !== 'ADS').map(renderTask);
  if (!adsTask) return <div className="list">{rows}</div>;
  const adsRow = <AdsRow key={`ads-${adsTask.id}`} task={adsTask} />;
  return <div className="list">{adsDone(adsTask) ? [...rows, adsRow] : [adsRow, ...rows]}</div>;
};

const TypedList = ({ type }: { type: TaskType }) => {
  const query = useTasks(type);
  const { _ } = useLingui();
  if (query.isPending) return <Skeleton count={3} />;
  if (query.isError) return <p className="empty" role="alert">{messageText('somethingWrong')}</p>;
  if (!query.data?.length) return <p className="empty">{_('app.ui.noData')}</p>;
  return <div className="list">{query.data.map(renderTask)}</div>;
};

/** Earn (§2): Tasks (Social, Invite, Partner, Airdrop) and Achievements. */
export const EarnScreen = () => {
  const [tab, setTab] = useState<'tasks' | 'achievements'>('tasks');
  const [sub, setSub] = useState<SubTab>('social');
  const { _ } = useLingui();
  const labelled = <T extends { label: string }>(tabs: readonly T[]) => tabs.map((t) => ({ ...t, label: _(t.label) }));
  return (
    <div className="earn">
      <div className="earn__hero">
        <img src={art('money-token')} alt="" />
        <h1 className="h1">{_('app.earn.title')}</h1>
      </div>
      <Tabs label={_('app.earn.tabs')} tabs={labelled(mainTabs)} value={tab} onChange={setTab} />
      {tab === 'achievements' ? (
        <Achievements />
      ) : (
        <>
          <Tabs label={_('app.earn.kind')} small tabs={labelled(subTabs)} value={sub} onChange={setSub} />
          {sub === 'social' && <SocialList />}
          {sub === 'invite' && <TypedList type={subTabType.invite} />}
          {sub === 'partner' && <TypedList type={subTabType.partner} />}
          {sub === 'airdrop' && <p className="empty earn__soon">{_('app.earn.comingSoon')}</p>}
        </>
      )}
    </div>
  );
};
