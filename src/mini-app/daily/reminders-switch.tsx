import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { setReminders } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { messages, notify } from '../messages.ts';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { useDaily } from './use-daily.ts';
import './daily.css';

/**
 * The profile card's switch for the bot's reminders (docs/rules.md §15.4), remembered on the server
 * (`POST /daily/reminders`); the status says where it stands. A refused save leaves it as it was.
 */
export const RemindersSwitch = () => {
  const { _ } = useLingui();
  const api = useApi();
  const daily = useDaily();
  const refresh = useRefreshAfterClaim();
  const [saving, setSaving] = useState<boolean | null>(null);
  if (!daily) return null;
  const on = saving ?? daily.reminders;
  const toggle = async () => {
    setSaving(!on);
    try {
      await setReminders(api, !on);
      await refresh();
    } catch {
      notify(messages.somethingWrong, 'error');
    }
    setSaving(null);
  };
  return (
    <div className="switch">
      <span className="switch__text" id="reminders-label">
        <strong>{_('app.profile.reminders')}</strong>
        <span className="hint">{_('app.profile.remindersHint')}</span>
      </span>
      <button
        className="switch__track"
        role="switch"
        aria-checked={on}
        aria-labelledby="reminders-label"
        disabled={saving !== null}
        onClick={() => void toggle()}
        data-testid="reminders-switch"
      />
    </div>
  );
};
