/**
 * POST /click's action: the batch goes through the one click queue (click-batcher.ts) and, once
 * answered, the device it came from is noted for the integrity review (docs/airdrop.md "Integrity
 * review"). One per app: the queue groups every request of the process.
 */
import type { Clock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import { DeviceSightings } from '../integrity/exports.ts';
import { ClickBatcher, type ClickAnswer } from './click-batcher.ts';

export interface ClickBatch {
  userId: number;
  click: number;
  batchId: string | null;
  /** The device's clock at the batch's first tap, for the review's cadence. */
  firstTapMs: number | null;
  /** The x-device-id header the mini-app sends with every call. */
  deviceId: string | null;
}

export interface Clicks {
  /** Applies a batch of taps (answered once its group committed) and notes its device. */
  submit(batch: ClickBatch): Promise<ClickAnswer>;
}

/** The app's click queue and device sightings; `logSightingError` hears a sighting that was not recorded. */
export function createClicks(db: Db, clock: Clock, logSightingError: (err: unknown) => void): Clicks {
  const batcher = new ClickBatcher(db, clock);
  const devices = new DeviceSightings(db, logSightingError);
  return {
    async submit({ userId, click, batchId, firstTapMs, deviceId }) {
      const answer = await batcher.submit(userId, click, batchId, firstTapMs);
      // The mini-app always sends its device id and a batch id: a batch without either is recorded as ''.
      await devices.sighted(userId, batchId === null ? '' : (deviceId ?? ''), answer.nowMs);
      return answer;
    },
  };
}
