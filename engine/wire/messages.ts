/**
 * Every user-facing message of spec §8 (and §4/§5's client checks), word for word, typos included.
 * The one home of these texts: the engine, the mini-app and the server all read them here.
 */
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
  // Not in §8: the one line shown while the server cannot be reached (docs/mini-app.md).
  reconnecting: 'Reconnecting…',
} as const;

export type MessageKey = keyof typeof messages;
