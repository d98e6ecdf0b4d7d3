import type { UserStatus } from '../../../engine/api-types.ts';
import { titleFor } from '../../../engine/titles.ts';
import { art, Avatar, Icon } from '../ui/art.tsx';
import { ConnectX } from '../ui/connect-x.tsx';
import { Popup } from '../ui/popup.tsx';

/** The profile card behind the avatar: title, account ages, refcode, and the X account. */
export const ProfileCard = ({ status, onClose }: { status: UserStatus; onClose: () => void }) => {
  const title = titleFor(status.teleAge, status.twAge);
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
          <ConnectX />
        )}
      </div>
    </Popup>
  );
};
