/** The referral link for a refcode: the mini-app's start parameter carries the code (§2). */
export const refLinkOf = (botUsername: string, miniAppName: string, refcode: string): string =>
  miniAppName === '' ? `https://t.me/${botUsername}?startapp=${refcode}` : `https://t.me/${botUsername}/${miniAppName}?startapp=${refcode}`;
