/**
 * A task as the player will see it in Earn (§2): the mini-app's own TaskImage and MONEY icon, in a
 * phone-width frame styled like the mini-app's task row (admin.css .preview). The action on the
 * right follows the task's kind: an exchange ID field and Check, a captcha, n / 10 for ads and boosts.
 */
import type { TaskInput } from '../../engine/wire/admin-types.ts';
import { formatMoney } from '../../engine/rules/format.ts';
import { MoneyIcon } from '../mini-app/ui/art.tsx';
import { TaskImage } from '../mini-app/ui/task-image.tsx';

const tabOf: Record<string, string> = { TASK1: 'Tasks · Social', SOCIAL: 'Tasks · Social', ADS: 'Tasks · Social', INVITE: 'Tasks · Invite', EXCHANGE: 'Tasks · Partner', ACHIVEMENT: 'Achievements' };

export const TaskPreview = ({ task }: { task: TaskInput }) => {
  const exchange = task.handleType === 'CHECK_ONUS' || task.handleType === 'CHECK_BINGX';
  const counted = task.type === 'ADS' || task.handleType === 'BOOST';
  const reward = /^\d+(\.\d+)?$/.test(task.reward) ? formatMoney(task.reward) : task.reward;
  return (
    <figure className="preview" aria-label="Preview as the player sees it">
      <figcaption className="muted small">
        Earn → {tabOf[task.type] ?? task.type}
        {task.isDaily ? ' · resets daily at 00:00 UTC' : ''}
        {!task.active ? ' · hidden (disabled)' : ''}
      </figcaption>
      <div className={`preview__phone${task.active ? '' : ' preview__phone--off'}`}>
        <div className="preview__card" data-testid="task-preview">
          <div className="preview__row">
            <TaskImage className="preview__img" image={task.image} />
            <div className="preview__main">
              <div className="preview__title">{task.title || 'Untitled task'}</div>
              <div className="preview__sub">
                <MoneyIcon /> +{reward}
                {counted && <span> · 0 / 10</span>}
                {task.type === 'INVITE' && <span> · 0 / {task.link || '?'} friends</span>}
                {task.type === 'ACHIVEMENT' && <span> · {task.link || '?'} taps</span>}
              </div>
            </div>
            <button type="button" className="preview__go" tabIndex={-1}>{task.type === 'ACHIVEMENT' ? 'Claim' : 'Go'}</button>
          </div>
          {exchange && (
            <div className="preview__extra">
              <input disabled placeholder={task.handleType === 'CHECK_ONUS' ? 'Your ONUS ID' : 'Your BingX UID'} />
              <button type="button" disabled>Check</button>
            </div>
          )}
          {task.needsCaptcha && <div className="preview__captcha">Captcha (Cloudflare Turnstile) before the claim</div>}
        </div>
        {task.desc && <p className="preview__desc">{task.desc}</p>}
      </div>
    </figure>
  );
};
