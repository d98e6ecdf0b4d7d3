import { useQueryClient } from '@tanstack/react-query';
import type { UserStatus } from '../../../engine/api-types.ts';
import { titleFor } from '../../../engine/titles.ts';
import { openLink } from '../../telegram.ts';
import { checkXConnect, socialLogin } from '../api/calls.ts';
import { keys, useApi } from '../api/queries.ts';
import { messages, notify } from '../messages.ts';
import { art, Avatar, Icon } from '../ui/art.tsx';
import { Popup } from '../ui/popup.tsx';

/** The profile card behind the avatar: title, account ages, refcode, and the X account. */
export const ProfileCard = ({ status, onClose }: { status: UserStatus; onClose: () => void }) => {
  const api = useApi();
  const queryClient = useQueryClient();
  const title = titleFor(status.teleAge, status.twAge);
  const connectX = async () => {
    try {
      const { authUrl } = await socialLogin(api, window.location.href);
      openLink(authUrl);
    } catch {
      notify(messages.somethingWrong, 'error');
    }
  };
  const refreshX = async () => {
    try {
      await checkXConnect(api);
      await queryClient.invalidateQueries({ queryKey: keys.status });
    } catch {
      notify(messages.somethingWrong, 'error');
    }
  };
  return (
    <Popup onClose={onClose} label="Profile">
      <div className="profile">
        <Avatar src={status.teleAvatar} name={status.teleUsername} size={72} />
        <h2 className="popup__title">{status.teleUsername}</h2>
        <div className="profile__title">
          <img src={art(title.image)} alt="" />
          <span>{title.name}</span>
        </div>
        <div className="profile__tiles">
          <div className="card"><strong>{status.teleAge}</strong><span className="hint">days on telegram</span></div>
          <div className="card"><strong>{status.twAge}</strong><span className="hint">days on twitter</span></div>
        </div>
        <p className="hint">Referral code <strong>{status.refcode}</strong></p>
        {status.twUsername ? (
          <p className="profile__x"><Icon name="icon-x" size={16} /> @{status.twUsername}</p>
        ) : (
          <div className="popup__actions">
            <button className="btn" onClick={() => void connectX()}>
              <Icon name="icon-x" size={16} /> Connect X
            </button>
            <button className="btn btn--ghost" onClick={() => void refreshX()}>I connected</button>
          </div>
        )}
      </div>
    </Popup>
  );
};
