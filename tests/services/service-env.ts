/** Small shared pieces for service tests that need no app. */
import { manualClock, type ManualClock } from '../../server/core/clock.ts';
import { exchangeSettings, type FakeExchanges } from '../../server/dev/stand-ins/fake-exchanges.ts';
import type { FakeTelegram } from '../../server/dev/stand-ins/fake-telegram.ts';
import { botToken, startMs, testEnv } from './harness.ts';

export { botToken, testEnv };

/** The exchange checks and the channel-boost count pointed at their stand-ins (the boost chat is @money_channel). */
export const partnerSettings = (ex: FakeExchanges, tg: FakeTelegram) => {
  tg.settings.boostChat = '@money_channel';
  return { ...exchangeSettings(ex), BOT_API_ROOT: tg.apiRoot, CHANNEL_URL: 'https://t.me/money_channel', OUTSIDE_TIMEOUT_MS: '1500' };
};

export const manualClockFor = (): ManualClock => manualClock(startMs);
