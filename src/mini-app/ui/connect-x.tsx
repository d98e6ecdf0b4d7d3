import { useLingui } from '@lingui/react';
import { useQueryClient } from '@tanstack/react-query';
import { openLink } from '../../telegram.ts';
import { checkXConnect, socialLogin } from '../api/calls.ts';
import { keys, useApi } from '../api/queries.ts';
import { isDemo } from '../demo.ts';
import { useGame } from '../game-context.tsx';
import { messages, notify } from '../messages.ts';
import { Icon } from './art.tsx';

/**
 * Connect X (§1: its account age adds to the welcome reward and the title): opens X's consent page
 * and, with "I connected", reloads the status and the balances (the X part may have been paid).
 */
export const ConnectX = () => {
  const { _ } = useLingui();
  const api = useApi();
  const game = useGame();
  const queryClient = useQueryClient();
  const connect = async () => {
    try {
      const { authUrl } = await socialLogin(api, window.location.href);
      openLink(authUrl);
    } catch {
      notify(messages.somethingWrong, 'error');
    }
  };
  const refresh = async () => {
    try {
      await checkXConnect(api);
      await queryClient.invalidateQueries({ queryKey: keys.status });
      await Promise.resolve(game.refresh()).catch(() => undefined);
    } catch {
      notify(messages.somethingWrong, 'error');
    }
  };
  return (
    <div className="popup__actions">
      <button className="btn" onClick={() => void connect()}>
        <Icon name="icon-x" size={16} /> {_('app.profile.connectX')}{isDemo('x') && <span className="demo-tag">{_('app.ui.demo')}</span>}
      </button>
      <button className="btn btn--ghost" onClick={() => void refresh()}>{_('app.profile.iConnected')}</button>
    </div>
  );
};
