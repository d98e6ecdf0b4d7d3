import { useLingui } from '@lingui/react';
import { openLink } from '../../telegram.ts';
import { checkXConnect, socialLogin } from '../api/calls.ts';
import { useApi } from '../api/queries.ts';
import { demoLeave, isDemo } from '../demo.ts';
import { messages, notify } from '../messages.ts';
import { useRefreshAfterClaim } from '../use-claim.ts';
import { Icon } from './art.tsx';

/**
 * Connect X (§1: its account age adds to the welcome reward and the title): opens X's consent page
 * and, with "I connected", reloads the status and the balances (the X part may have been paid).
 */
export const ConnectX = () => {
  const { _ } = useLingui();
  const api = useApi();
  const refreshAfterClaim = useRefreshAfterClaim();
  const connect = async () => {
    try {
      const { authUrl } = await socialLogin(api, window.location.href);
      // In the demo the consent page opens in this tab, so X's callback lands back in the mini-app.
      if (isDemo('x')) demoLeave.to(authUrl);
      else openLink(authUrl);
    } catch {
      notify(messages.somethingWrong, 'error');
    }
  };
  const refresh = async () => {
    try {
      await checkXConnect(api);
      await refreshAfterClaim();
    } catch {
      notify(messages.somethingWrong, 'error');
    }
  };
  return (
    <div className="popup__actions connect-x">
      <button className="btn" onClick={() => void connect()}>
        <Icon name="icon-x" size={16} /> {_('app.profile.connectX')}{isDemo('x') && <span className="demo-tag">{_('app.ui.demo')}</span>}
      </button>
      <button className="btn btn--ghost" onClick={() => void refresh()}>{_('app.profile.iConnected')}</button>
    </div>
  );
};
