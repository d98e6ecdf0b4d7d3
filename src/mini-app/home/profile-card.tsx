import { Trans, useLingui } from '@lingui/react';
import type { UserStatus } from '../../../engine/wire/api-types.ts';
import { titleFor } from '../../../engine/rules/titles.ts';
import { art, Avatar, Icon } from '../ui/art.tsx';
import { ConnectX } from '../ui/connect-x.tsx';
import { titleName } from '../locale.ts';
import { Popup } from '../ui/popup.tsx';
import { LanguageChoice } from './language-choice.tsx';
import { RemindersSwitch } from '../daily/reminders-switch.tsx';

/** The profile card behind the avatar: title, account ages, refcode, the X account, the language and the bot's reminders. */
export const ProfileCard = ({ status, onClose }: { status: UserStatus; onClose: () => void }) => {
  const { _ } = useLingui();
  const title = titleFor(status.teleAge, status.twAge);
  return (
    <Popup onClose={onClose} label={_('app.profile.label')}>
      <div className="profile">
        <Avatar src={status.teleAvatar} name={status.teleUsername} size={72} />
        <h2 className="popup__title profile__name" data-testid="profile-name">{status.teleUsername}</h2>
        <div className="profile__title">
          <img src={art(title.image)} alt="" />
          <span>{titleName(_, title)}</span>
        </div>
        <div className="profile__tiles">
          <div className="card"><strong>{status.teleAge}</strong><span className="hint">{_('app.profile.daysOnTelegram')}</span></div>
          <div className="card"><strong>{status.twAge}</strong><span className="hint">{_('app.profile.daysOnTwitter')}</span></div>
        </div>
        <p className="hint"><Trans id="app.profile.refcode" values={{ code: status.refcode }} components={{ 0: <strong /> }} /></p>
        {status.twUsername ? (
          <p className="profile__x"><Icon name="icon-x" size={16} /> <bdi>@{status.twUsername}</bdi></p>
        ) : (
          <ConnectX />
        )}
        <LanguageChoice />
        <RemindersSwitch />
      </div>
    </Popup>
  );
};
