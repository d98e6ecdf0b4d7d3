import { useLingui } from '@lingui/react';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Task } from '../../../engine/wire/api-types.ts';
import { economy } from '../../../engine/rules/economy.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { haptic, openLink, openTelegramLink, telegramUser } from '../../telegram.ts';
import { demoTelegramLink } from '../demo.ts';
import { checkTask } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { useStatus } from '../engine-context.tsx';
import { messages, notify } from '../messages.ts';
import { MoneyIcon } from '../ui/art.tsx';
import { TaskImage } from '../ui/task-image.tsx';
import { appLocale } from '../locale.ts';
import { isExternalLinkTask, openedTasks, refSatisfied, rememberOpened, taskTitleIn } from './task-rules.ts';
import { useClaimTask } from './use-claim-task.ts';
import { useTaskCaptcha, type CaptchaPayload } from './use-task-captcha.tsx';

const openTaskLink = (link: string) => {
  // The demo's Telegram stand-in plays t.me's join and boost pages.
  const demo = demoTelegramLink(link, telegramUser()?.id);
  if (demo !== null) return openLink(new URL(demo, window.location.origin).toString());
  return link.startsWith('https://t.me/') ? openTelegramLink(link) : openLink(link);
};

/** The row layout every task shares: image, title, reward, and an action on the right. */
export const TaskShell = ({ task, children, extra, sub }: { task: Task; children: ReactNode; extra?: ReactNode; sub?: ReactNode }) => (
  <div className="card task" data-testid={`task-${task.id}`}>
    <div className="row">
      <TaskImage className="task__img" image={task.image} />
      <div className="row__main">
        <div className="row__title" dir="auto">{taskTitleIn(task, appLocale())}</div>
        <div className="row__sub"><MoneyIcon /> <bdi>+{formatMoney(task.reward)}</bdi>{sub}</div>
      </div>
      {children}
    </div>
    {extra}
  </div>
);

export const DoneMark = () => {
  const { _ } = useLingui();
  return <span className="task__done" role="img" aria-label={_('app.ui.done')}>✓</span>;
};

/**
 * One task of the Social or Invite list (§2, §4, §5): external links open first and claim on the
 * next press; REF tasks need enough invites (else go to /invite); the BOOST task checks the
 * channel boosts; captcha tasks need a Turnstile token first.
 */
export const TaskRow = ({ task }: { task: Task }) => {
  const api = useApi();
  const { _ } = useLingui();
  const navigate = useNavigate();
  const status = useStatus().data;
  const claim = useClaimTask();
  const [opened, setOpened] = useState(() => openedTasks().includes(task.id));
  const captcha = useTaskCaptcha(task, (payload) => void claimWithCaptcha(payload));
  const [busy, setBusy] = useState(false);

  if (task.hasDone) return <TaskShell task={task}><DoneMark /></TaskShell>;

  const claimWithCaptcha = async (payload: CaptchaPayload = captcha.payload) => {
    if (captcha.needed && !payload.captchaToken) return captcha.claimWhenSolved();
    setBusy(true);
    const ok = await claim(task, payload);
    if (!ok) captcha.spend();
    setBusy(false);
  };

  const press = async () => {
    haptic.tap();
    if (task.handleType === 'REF') {
      if (!refSatisfied(task, status?.inviteCnt ?? 0)) return navigate('/invite');
      return claimWithCaptcha();
    }
    if (task.handleType === 'BOOST') {
      setBusy(true);
      // §9: the check waits 10 s when the channel had to be opened, 0.5 s otherwise.
      const mustOpen = !opened && task.link.startsWith('http');
      if (mustOpen) {
        openTaskLink(task.link);
        rememberOpened(task.id);
        setOpened(true);
      }
      await new Promise((r) => setTimeout(r, mustOpen ? economy.boostCheckDelayWithChannelMs : economy.boostCheckDelayMs));
      try {
        const { boostChannelCnt } = await checkTask(api, { taskId: task.id });
        // §5: the boost count must exceed numberOfDone.
        if (boostChannelCnt > task.numberOfDone) await claim(task);
        else notify(messages.boostClaimFailed, 'error');
      } catch {
        notify(messages.boostClaimFailed, 'error');
      }
      return setBusy(false);
    }
    if (isExternalLinkTask(task) && !opened) {
      openTaskLink(task.link);
      rememberOpened(task.id);
      return setOpened(true);
    }
    return claimWithCaptcha();
  };

  const action = task.handleType === 'REF'
    ? refSatisfied(task, status?.inviteCnt ?? 0) ? 'claim' : 'invite'
    : task.handleType === 'BOOST' ? 'boost'
    : isExternalLinkTask(task) && !opened ? 'start' : 'claim';
  const sub = task.handleType === 'BOOST'
    ? <span className="task__count"> · <bdi>{task.numberOfDone} / {economy.boostTaskTarget}</bdi></span>
    : task.handleType === 'REF' ? <span className="task__count"> · <bdi>{status?.inviteCnt ?? 0} / {task.link}</bdi></span> : undefined;
  return (
    <TaskShell task={task} sub={sub} extra={captcha.widget(action === 'claim')}>
      <button className="btn btn--small" disabled={busy} onClick={() => void press()}>{busy ? '…' : _(`app.task.${action}`)}</button>
    </TaskShell>
  );
};
