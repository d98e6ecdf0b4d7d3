/** Small shared pieces for service tests that need no app. */
import { manualClock, type ManualClock } from '../../server/clock.ts';
import { botToken, startMs, testEnv } from './harness.ts';

export { botToken, testEnv };

export const manualClockFor = (): ManualClock => manualClock(startMs);
