import { useLingui } from '@lingui/react';
import { useEffect, useRef, useState } from 'react';
import type { Task } from '../../../engine/wire/api-types.ts';
import { economy } from '../../../engine/rules/economy.ts';
import { haptic, openLink } from '../../telegram.ts';
import { config } from '../../config.ts';
import { checkTask } from '../api/calls.ts';
import { isDemo } from '../demo.ts';
import { useApi } from '../api/queries.ts';
import { messages, notify } from '../messages.ts';
import { appLocale } from '../locale.ts';
import { DoneMark, TaskShell } from './task-row.tsx';
import { taskTitleIn } from './task-rules.ts';
import { useClaimTask } from './use-claim-task.ts';
import { useTaskCaptcha, type CaptchaPayload } from './use-task-captcha.tsx';

type CheckState = 'idle' | 'WAIT' | 'DONE';

/**
 * A partner exchange task (CHECK_ONUS, CHECK_BINGX; §4): enter the exchange ID, Check (WAIT for
 * 5 s while the server checks), then DONE, the captcha when the task needs one, and Claim.
 * §5 messages guard each step.
 */
export const ExchangeTaskRow = ({ task }: { task: Task }) => {
  const api = useApi();
  const { _ } = useLingui();
  const claim = useClaimTask();
  const captcha = useTaskCaptcha(task, (payload) => void claimIt(payload));
  const [value, setValue] = useState('');
  const [state, setState] = useState<CheckState>('idle');
  const [busy, setBusy] = useState(false);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  if (task.hasDone) return <TaskShell task={task}><DoneMark /></TaskShell>;

  const check = async () => {
    if (!value.trim()) return notify(messages.fillInput, 'error');
    haptic.tap();
    setState('WAIT');
    const wait = new Promise((r) => setTimeout(r, economy.exchangeCheckMs));
    try {
      await Promise.all([checkTask(api, { taskId: task.id, inputValue: value.trim() }), wait]);
      if (mounted.current) setState('DONE');
    } catch {
      if (!mounted.current) return;
      setState('idle');
      notify(messages.exchangeCheckFailed, 'error');
    }
  };

  const claimIt = async (payload: CaptchaPayload = captcha.payload) => {
    if (state !== 'DONE') return notify(messages.checkAccount, 'error');
    if (captcha.needed && !payload.captchaToken) return captcha.claimWhenSolved();
    setBusy(true);
    const ok = await claim(task, { inputValue: value.trim(), ...payload });
    if (!mounted.current) return;
    if (!ok) captcha.spend();
    setBusy(false);
  };

  return (
    <TaskShell
      task={task}
      extra={
        <>
          <div className="task__exchange">
            {task.link.startsWith('http') && (
              <button className="btn btn--small btn--ghost" onClick={() => openLink(task.link)}>{_('app.task.register')}</button>
            )}
            <input
              className="input"
              placeholder={_('app.task.exchangeId')}
              value={value}
              disabled={state !== 'idle'}
              onChange={(e) => setValue(e.target.value)}
              aria-label={_('app.task.exchangeIdLabel', { task: taskTitleIn(task, appLocale()) })}
            />
            <button className="btn btn--small btn--ghost" disabled={state !== 'idle'} onClick={() => void check()}>
              {state === 'idle' ? _('app.task.check') : state === 'WAIT' ? _('app.task.wait') : _('app.task.checked')}
            </button>
          </div>
          {isDemo('exchanges') && config.demoExchangeUid && state === 'idle' && (
            <p className="hint task__demo"><span className="demo-tag">{_('app.ui.demo')}</span> {_('app.task.demoExchange', { uid: config.demoExchangeUid })}</p>
          )}
          {captcha.widget(state === 'DONE')}
        </>
      }
    >
      <button className="btn btn--small" disabled={busy} onClick={() => void claimIt()}>{_('app.task.claim')}</button>
    </TaskShell>
  );
};
