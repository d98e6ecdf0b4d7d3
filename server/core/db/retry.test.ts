import { describe, expect, it } from 'vitest';
import { CommitUnknown, DbUnavailable } from './errors.ts';
import type { Db } from './db.ts';
import { dbAttempts, retrying } from './retry.ts';
import { transaction } from './transaction.ts';

const failingWith = (err: unknown) => {
  let runs = 0;
  const run = async () => {
    runs++;
    throw err;
  };
  return { run, runs: () => runs };
};

describe('the retry policy', () => {
  it('runs a deadlock, a serialisation conflict and an outage again, 3 runs in all', async () => {
    for (const err of [Object.assign(new Error('deadlock'), { code: '40P01' }), Object.assign(new Error('conflict'), { code: '40001' }), new DbUnavailable('away')]) {
      const f = failingWith(err);
      await expect(retrying(f.run)).rejects.toBe(err);
      expect(f.runs()).toBe(dbAttempts);
    }
    expect(dbAttempts).toBe(3);
  });

  it('never runs again a COMMIT whose answer was lost, nor a refusal of the statement', async () => {
    for (const err of [new CommitUnknown(new Error('reset')), Object.assign(new Error('duplicate'), { code: '23505' })]) {
      const f = failingWith(err);
      await expect(retrying(f.run)).rejects.toBe(err);
      expect(f.runs()).toBe(1);
    }
  });

  it('answers the first run that succeeds, and stops when the caller says so', async () => {
    let runs = 0;
    expect(await retrying(async (attempt) => (++runs < 2 ? Promise.reject(new DbUnavailable('away')) : attempt))).toBe(2);
    const f = failingWith(new DbUnavailable('away'));
    await expect(retrying(f.run, () => 'stop')).rejects.toBeInstanceOf(DbUnavailable);
    expect(f.runs()).toBe(1);
  });

  it('runs a transaction again for an outage but never for a statement that ran out of time', async () => {
    for (const [err, runs] of [[new DbUnavailable('away'), dbAttempts], [Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }), 1], [new Error('Query read timeout'), 1]] as const) {
      const f = failingWith(err);
      await expect(transaction({ transaction: f.run } as unknown as Db, async () => {})).rejects.toBe(err);
      expect(f.runs()).toBe(runs);
    }
  });
});
