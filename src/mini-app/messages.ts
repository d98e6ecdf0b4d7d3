import { economy } from '../../engine/economy.ts';
import { $online } from '../game/signals.ts';
import { toasterReady } from './ui/toaster.tsx';

/** Every user-facing message of spec §8 (and §5's client checks), word for word, typos included. */
export const messages = {
  startNoData: 'Error occurred, please try later',
  taskClaimFailed: 'Claim task failed, please try again later!',
  usernameClaimFailed: '$MONEY NOT FOUND IN USER NAME',
  taskClaimSuccess: 'Claimed task successful',
  boostClaimFailed: 'You have not enouch boost',
  exchangeCheckFailed: 'Your account is not registered via link',
  somethingWrong: 'Something went wrong, please try again later!',
  upgradeSuccess: 'Upgrade successful',
  claimedSuccessful: 'Claimed successful',
  achievementClaimSuccess: 'Claimed reward successful',
  adsFailed: 'Watch video failed',
  refUpgradeSuccess: 'Upgraded successful',
  refUpgradeFailed: 'Upgrade failed',
  easterAlreadyClaimed: 'You have claimed reward!',
  fillInput: 'Please fill input',
  verifyCaptcha: 'Please verify captcha first',
  checkAccount: 'Please check account first',
  noEnergy: "You don't have enough energy to click!",
  // Not in §8: the one line shown while the server cannot be reached (shell/reconnecting.tsx).
  reconnecting: 'Reconnecting…',
} as const;

export type MessageKind = 'success' | 'error' | 'info';

/** §8: one toast at a time, for 2 s. A new message replaces the one on screen. */
export const notify = (text: string, kind: MessageKind = 'info'): void => {
  // While the engine is reconnecting, the Reconnecting line already says what is wrong: failed
  // calls add no error toast of their own (docs/mini-app.md "Reconnecting").
  if (kind === 'error' && !$online.peek()) return;
  void Promise.all([import('sonner'), toasterReady]).then(([{ toast }]) => {
    toast.dismiss();
    const options = { duration: economy.toastDurationMs };
    if (kind === 'success') toast.success(text, options);
    else if (kind === 'error') toast.error(text, options);
    else toast(text, options);
  });
};
