/**
 * The scheduler's guarantee (server/core/jobs/job.ts): each period runs once across processes, and a
 * run that dies half-way leaves nothing behind, so the next check runs the period again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobIfDue, type Job } from '../../server/core/jobs/job.ts';
import { backends, openServicesHarness, type ServicesHarness } from './harness.ts';

describe.each(backends)('jobs run once per period (%s)', (backend) => {
  let h: ServicesHarness;
  beforeAll(async () => {
    h = await openServicesHarness(backend);
    await h.db.exec('CREATE TABLE job_effects (job TEXT NOT NULL, period TEXT NOT NULL)');
  });
  afterAll(async () => {
    await h?.close();
  });

  /** A job that writes one row per run through its transaction, and can be made to die mid-run. */
  const job = (name: string, opts: { dieAfterWrite?: () => boolean; gate?: Promise<void>; entered?: () => void } = {}): Job<string> => ({
    name,
    periodOf: (nowMs) => String(Math.floor(nowMs / 60_000)),
    checkEveryMs: 30_000,
    run: async ({ tx, nowMs }) => {
      const period = String(Math.floor(nowMs / 60_000));
      await tx.query('INSERT INTO job_effects (job, period) VALUES ($1, $2)', [name, period]);
      opts.entered?.();
      await opts.gate;
      if (opts.dieAfterWrite?.()) throw new Error('killed mid-run');
      return period;
    },
  });
  const effects = async (name: string) => (await h.db.query<{ period: string }>('SELECT period FROM job_effects WHERE job = $1', [name])).rows.map((r) => r.period);
  const runs = async (name: string) => Number((await h.db.query<{ runs: number }>('SELECT runs FROM job_schedule WHERE job = $1', [name])).rows[0]?.runs ?? 0);

  it('runs a period once, however many processes check it at the same time', async () => {
    const j = job('parallel');
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => runJobIfDue(h.db, j, h.clock.now())));
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
    expect((await runJobIfDue(h.db, j, h.clock.now())).ran).toBe(false);
    expect(await effects('parallel')).toHaveLength(1);
    h.clock.advance(60_000);
    expect((await runJobIfDue(h.db, j, h.clock.now())).ran).toBe(true);
    expect(await effects('parallel')).toHaveLength(2);
    expect(await runs('parallel')).toBe(2);
  });

  // On PGlite (one connection) a second transaction simply waits its turn.
  it.skipIf(backend === 'pglite')('skips a job another process is running, without waiting for it', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let entered!: () => void;
    const running = new Promise<void>((resolve) => (entered = resolve));
    const first = runJobIfDue(h.db, job('held', { gate, entered }), h.clock.now());
    // The job body runs only once its row is locked.
    await running;
    expect((await runJobIfDue(h.db, job('held'), h.clock.now())).ran).toBe(false);
    open();
    expect((await first).ran).toBe(true);
    expect(await effects('held')).toHaveLength(1);
  });

  it('a clock reading older than the last run (a process that waited) does not run a passed period again', async () => {
    const j = job('stale');
    const late = h.clock.now();
    h.clock.advance(60_000);
    expect((await runJobIfDue(h.db, j, h.clock.now())).ran).toBe(true);
    expect((await runJobIfDue(h.db, j, late)).ran).toBe(false);
    expect(await runs('stale')).toBe(1);
  });

  it('a run killed half-way leaves nothing, and the next check runs the period again', async () => {
    let die = true;
    const j = job('crash', { dieAfterWrite: () => die });
    await expect(runJobIfDue(h.db, j, h.clock.now())).rejects.toThrow('killed mid-run');
    expect(await effects('crash')).toEqual([]);
    expect(await runs('crash')).toBe(0);
    die = false;
    expect((await runJobIfDue(h.db, j, h.clock.now())).ran).toBe(true);
    expect(await effects('crash')).toHaveLength(1);
    expect(await runs('crash')).toBe(1);
  });
});
