/**
 * Device sightings (docs/airdrop.md "Integrity review"): the mini-app keeps a random device id in
 * web storage and sends it as `x-device-id` with its calls; POST /click records which player sent
 * batches from which device, as one row per (device, player) in integrity_devices. A batch without
 * what the mini-app always sends (the device id, a batch id) is recorded under the device ''.
 *
 * On the request path this is one small upsert per player, device and UTC day in each process (a
 * bounded memory of what it already wrote), never a read: the signals job does the counting.
 */
import { BoundedMap } from '../core/bounded-map.ts';
import type { Queryable } from '../core/db/db.ts';

const dayMs = 86_400_000;

export class DeviceSightings {
  /** `${userId}:${deviceId}` → the UTC day last written. */
  private readonly written = new BoundedMap<string, number>(200_000);

  constructor(
    private readonly db: Queryable,
    private readonly log: (err: unknown) => void = () => {},
  ) {}

  /**
   * Records that `userId` sent a click batch from `deviceId` ('' when it came without the device id
   * or a batch id), at most once a day per process. A failure is logged and tried again next time:
   * the batch itself is already answered.
   */
  async sighted(userId: number, deviceId: string, nowMs: number): Promise<void> {
    const key = `${userId}:${deviceId}`;
    const day = Math.floor(nowMs / dayMs);
    if (this.written.get(key) === day) return;
    this.written.set(key, day);
    try {
      await this.db.query(
        `INSERT INTO integrity_devices (device_id, user_id, first_seen_ms, last_seen_ms) VALUES ($1, $2, $3, $3)
         ON CONFLICT (device_id, user_id) DO UPDATE SET last_seen_ms = GREATEST(integrity_devices.last_seen_ms, EXCLUDED.last_seen_ms)`,
        [deviceId, userId, nowMs],
      );
    } catch (err) {
      this.written.delete(key);
      this.log(err);
    }
  }
}
