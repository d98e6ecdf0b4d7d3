import { describe, expect, it } from 'vitest';
import { PendingTaps } from './pending-taps.ts';
import { counterIds } from './testing/in-memory-transport.ts';

describe('pending taps', () => {
  it('cuts unsent taps into batches with fresh ids and rising seqs, oldest first', () => {
    const pending = new PendingTaps();
    const ids = counterIds();
    expect(pending.cut(ids)).toBeNull();
    pending.add(3);
    pending.add(2);
    expect(pending.cut(ids)).toEqual({ batchId: 'b1', seq: 1, click: 5 });
    pending.add(1);
    expect(pending.count).toBe(6);
    pending.cut(ids);
    expect(pending.head?.batchId).toBe('b1');
    expect(pending.settle('b1')).toBe(true);
    expect(pending.settle('b1')).toBe(false);
    expect(pending.head).toEqual({ batchId: 'b2', seq: 2, click: 1 });
    expect(pending.count).toBe(1);
  });

  it('refuses a negative or fractional tap count', () => {
    expect(() => new PendingTaps().add(-1)).toThrow(RangeError);
    expect(() => new PendingTaps().add(1.5)).toThrow(RangeError);
  });

  it('restores a record with its batch ids, skips malformed batches, and continues the seq after them', () => {
    const pending = new PendingTaps();
    pending.restore({
      batches: [{ batchId: 'x', seq: 7, click: 4 }, { batchId: 'bad', seq: 1, click: 0 }, null as never, { batchId: 'x', seq: 7, click: 4 }],
      unsent: 2,
    });
    expect(pending.batches).toEqual([{ batchId: 'x', seq: 7, click: 4 }]);
    expect(pending.unsent).toBe(2);
    expect(pending.cut(() => 'y')).toEqual({ batchId: 'y', seq: 8, click: 2 });
    expect(pending.record()).toEqual({ batches: [{ batchId: 'x', seq: 7, click: 4 }, { batchId: 'y', seq: 8, click: 2 }], unsent: 0 });
  });

  it('saves unsent taps with the id and seq they will be cut under, and a restore keeps them', () => {
    const pending = new PendingTaps();
    const ids = counterIds();
    pending.add(4);
    const saved = pending.record(ids);
    expect(saved).toEqual({ batches: [], unsent: 4, next: { batchId: 'b1', seq: 1 } });
    pending.add(1);
    expect(pending.record(ids).next).toEqual({ batchId: 'b1', seq: 1 });
    expect(pending.cut(ids)).toEqual({ batchId: 'b1', seq: 1, click: 5 });
    expect(pending.record(ids)).toEqual({ batches: [{ batchId: 'b1', seq: 1, click: 5 }], unsent: 0 });

    // A reload from the older record resends the same id: the server credits b1 at most once.
    const reloaded = new PendingTaps();
    reloaded.restore(saved);
    expect(reloaded.cut(counterIds('n'))).toEqual({ batchId: 'b1', seq: 1, click: 4 });
    reloaded.add(2);
    expect(reloaded.cut(counterIds('n'))).toEqual({ batchId: 'n1', seq: 2, click: 2 });
  });

  it('survives a stored record of another shape (keeping what is readable) instead of throwing at start', () => {
    const pending = new PendingTaps();
    expect(() => pending.restore({ batches: null, unsent: 3 } as never)).not.toThrow();
    expect(() => pending.restore('garbage' as never)).not.toThrow();
    expect(pending.batches).toEqual([]);
    expect(pending.unsent).toBe(3);
  });
});
