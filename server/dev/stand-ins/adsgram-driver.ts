/**
 * Plays Adsgram's server: calls our reward URL over real HTTP the way Adsgram does after a
 * rewarded view (`GET <reward url>?userid=<telegram id>&key=<secret>`), retrying on non-2xx like
 * a webhook sender.
 */
export interface AdsgramCall {
  status: number;
  body: unknown;
}

export const adsgramRewardUrl = (apiBase: string, key: string): string => `${apiBase}/public/adsgram/reward?userid=[userId]&key=${encodeURIComponent(key)}`;

/** Sends one reward callback for `userId` to a reward URL template with `[userId]`, as Adsgram would. */
export const sendAdsgramReward = async (rewardUrlTemplate: string, userId: number, retries = 2): Promise<AdsgramCall> => {
  const url = rewardUrlTemplate.replace('[userId]', String(userId));
  let last: AdsgramCall = { status: 0, body: null };
  for (let attempt = 0; attempt <= retries; attempt++) {
    const res = await fetch(url);
    const text = await res.text();
    last = { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    if (res.status < 500) return last;
  }
  return last;
};
