/**
 * Outside services the game rules need (server/services/ implements them on top of
 * config base URLs). When createApp gets no `services`, every task that needs one fails closed:
 * it is refused and credits nothing.
 */
export interface OutsideServices {
  /** Cloudflare Turnstile siteverify: true only for a valid, unused token. */
  verifyCaptcha(token: string, action: string, remoteIp?: string): Promise<boolean>;
  /** True when the exchange account `uid` was registered through our link. */
  checkExchange(handleType: 'CHECK_ONUS' | 'CHECK_BINGX', uid: string): Promise<boolean>;
  /** How many times the Telegram user has boosted our channel. */
  countChannelBoosts(telegramUserId: string): Promise<number>;
}
