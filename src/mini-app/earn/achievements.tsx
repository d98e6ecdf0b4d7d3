import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { Task } from '../../../engine/wire/api-types.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { formatCount } from '../../../engine/rules/i18n/format.ts';
import { $totalClick } from '../../engine-client/signals.ts';
import { useTasks } from '../api/queries.ts';
import { Icon, MoneyIcon } from '../ui/art.tsx';
import { TaskImage } from '../ui/task-image.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { appLocale } from '../locale.ts';
import { messageText } from '../messages.ts';
import { achievementState, taskTitleIn } from './task-rules.ts';
import { useClaimTask } from './use-claim-task.ts';

const AchievementRow = ({ task, state }: { task: Task; state: ReturnType<typeof achievementState> }) => {
  const claim = useClaimTask();
  const { _ } = useLingui();
  const [busy, setBusy] = useState(false);
  return (
    <div className={`card task achievement is-${state}`} data-testid={`achievement-${task.id}`}>
      <div className="row">
        <div className="achievement__badge">
          <TaskImage className="achievement__img" image={task.image} />
          {state === 'locked' && <span className="lock-badge achievement__lock"><Icon name="icon-lock" size={12} /></span>}
        </div>
        <div className="row__main">
          <div className="row__title" dir="auto">{taskTitleIn(task, appLocale())}</div>
          <div className="row__sub">{task.desc || _('app.achievement.taps', { count: formatCount(appLocale(), Number(task.link)) })}</div>
          <div className="row__sub"><MoneyIcon /> <bdi>+{formatMoney(task.reward)}</bdi></div>
        </div>
        {state === 'claimed' && <span className="task__done" role="img" aria-label={_('app.ui.claimed')}>✓</span>}
        {state === 'unlocked' && (
          <button
            className="btn btn--small"
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              await claim(task, {}, true);
              setBusy(false);
            }}
          >
            {_('app.ui.claim')}
          </button>
        )}
      </div>
    </div>
  );
};

/** Achievements (§2, §4): unlocked and claimed first, then "Locked Achievements"; "No Data" when none. */
export const Achievements = () => {
  useSignals();
  const query = useTasks('ACHIVEMENT');
  const { _ } = useLingui();
  if (query.isPending) return <Skeleton count={4} />;
  if (query.isError) return <p className="empty" role="alert">{messageText('somethingWrong')}</p>;
  const tasks = query.data ?? [];
  if (tasks.length === 0) return <p className="empty">{_('app.ui.noData')}</p>;
  const totalClick = $totalClick.value;
  const withState = tasks.map((task) => ({ task, state: achievementState(task, totalClick) }));
  const open = withState.filter((a) => a.state !== 'locked').sort((a, b) => (a.state === 'unlocked' ? -1 : 0) - (b.state === 'unlocked' ? -1 : 0));
  const locked = withState.filter((a) => a.state === 'locked');
  return (
    <div className="list">
      {open.map(({ task, state }) => <AchievementRow key={task.id} task={task} state={state} />)}
      {locked.length > 0 && <h3 className="h2">{_('app.achievement.locked')}</h3>}
      {locked.map(({ task, state }) => <AchievementRow key={task.id} task={task} state={state} />)}
    </div>
  );
};
