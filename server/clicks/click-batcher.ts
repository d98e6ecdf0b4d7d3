import type { Clock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import { activeSpanContext, traced } from '../core/tracing.ts';
import { applyClicks, GroupFailure, RowCache, type ClickAnswer } from './click-group.ts';
import type { Click } from './click-sql.ts';
import { clickMetrics, recordClickGroup } from './metrics.ts';
import type { SpanContext } from '@opentelemetry/api';

export type { ClickAnswer } from './click-group.ts';

interface Pending extends Click {
  resolve(a: ClickAnswer): void;
  reject(e: unknown): void;
  /** With traces on: the request's span, linked from the group's (docs/operations.md "Traces"). */
  span?: SpanContext | undefined;
}

export interface ClickBatcherOptions {
  /** Most requests in one group. */
  maxGroup?: number;
  /** Groups in flight at once. */
  concurrency?: number;
  /** Batches that must wait before a group starts beside one already in flight. */
  overlapMin?: number;
}

/**
 * The in-process queue of POST /click (docs/storage.md, "Click groups"): concurrent batches wait
 * here and are applied as one group (`applyClicks`: the read, the engine rule and one write
 * statement), each answered only after its group committed. A player is in at most one group in
 * flight, so their batches apply in arrival order.
 *
 * A group starts on the event loop's next turn (setImmediate), after every request already read
 * from the sockets has queued. That matters most on PGlite, whose queries run on this thread and
 * never wait for I/O: a group started at once would finish before the next request is even parsed,
 * and every batch would pay a whole statement alone.
 */
export class ClickBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxGroup: number;
  private readonly concurrency: number;
  private readonly overlapMin: number;
  /** Users in groups now committing: their next requests wait for the following group. */
  private readonly busy = new Set<number>();
  /** Each player's row as our last group left it: the write checks its version, never trusts it alone. */
  private readonly known = new RowCache(100_000);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    opts: ClickBatcherOptions = {},
  ) {
    // PGlite runs on this thread: smaller groups keep the event loop answering between them.
    this.maxGroup = opts.maxGroup ?? (db.kind === 'postgres' ? 1_000 : 250);
    // PostgreSQL: two groups in flight, so one group's commit (a WAL flush) overlaps the next
    // group's statement; bench:server in two runs on the busy 2-core machine (load 7–10): 2 → 4,414
    // batches/s p99 50 ms, 1 → 3,446 p99 73 ms. PGlite runs one statement at a time anyway.
    this.concurrency = opts.concurrency ?? (db.kind === 'postgres' ? 2 : 1);
    // A group's statement costs PostgreSQL ~0.24 ms of CPU and this process ~0.14 ms whatever its
    // size (~17 and ~8 µs a batch on top), so a second group is started only once enough batches
    // wait; the group in flight takes the rest when it ends. Started at once, the second group held
    // 2 batches in a tenth of the groups (mean 27 of 100 connections). docs/storage.md, "Click groups".
    this.overlapMin = opts.overlapMin ?? 32;
  }

  submit(userId: number, click: number, batchId: string | null, clientMs: number | null = null): Promise<ClickAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ userId, click, batchId, clientMs, resolve, reject, span: activeSpanContext() });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** A group may start: a slot is free, and a batch waits (none in flight) or `overlapMin` do. */
  private readyToStart(): boolean {
    return this.inFlight < this.concurrency && this.queue.length >= (this.inFlight === 0 ? 1 : this.overlapMin);
  }

  private pump(): void {
    while (this.readyToStart()) {
      // Take requests of players not already in a committing group (keeps one player's batches in order).
      const group: Pending[] = [];
      const rest: Pending[] = [];
      const taken = new Set<number>();
      for (const p of this.queue) {
        if (group.length < this.maxGroup && !this.busy.has(p.userId)) {
          group.push(p);
          taken.add(p.userId);
        } else rest.push(p);
      }
      if (group.length === 0) return;
      this.queue = rest;
      for (const id of taken) this.busy.add(id);
      this.inFlight++;
      void this.run(group).finally(() => {
        for (const id of taken) this.busy.delete(id);
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async run(group: Pending[]): Promise<void> {
    const startedMs = performance.now();
    try {
      // A span whose parent is the request that started the group, linked to every request in it.
      const links = group.flatMap((p) => (p.span !== undefined ? [{ context: p.span }] : []));
      const answers = await traced('click group write', () => applyClicks(this.db, group, () => this.clock.now(), this.known), { 'money.click.batches': group.length }, links);
      // Per group, not per request: the taps, the group's size and its time (docs/operations.md).
      recordClickGroup(group, answers, (performance.now() - startedMs) / 1_000);
      group.forEach((p, i) => p.resolve(answers[i]!));
    } catch (err) {
      clickMetrics.groupFailures.inc();
      if (!(err instanceof GroupFailure)) {
        for (const p of group) this.known.delete(p.userId);
        for (const p of group) p.reject(err);
        return;
      }
      // Some batches were written and some not: each is answered with its own outcome.
      const answered = group.flatMap((p, i) => (err.answers[i] !== undefined ? [{ p, a: err.answers[i] }] : []));
      recordClickGroup(answered.map((x) => x.p), answered.map((x) => x.a), (performance.now() - startedMs) / 1_000);
      group.forEach((p, i) => {
        const a = err.answers[i];
        if (a !== undefined) p.resolve(a);
        else p.reject(err.failures.get(i) ?? err);
      });
    }
  }
}

/**
 * Deletes batch ids older than `keepMs` (a replay after that is treated as a new batch, still
 * capped by energy and the human-rate allowance). For a periodic job; returns the rows deleted.
 */
export const pruneClickBatches = async (db: Db, nowMs: number, keepMs = 7 * 24 * 3_600_000): Promise<number> =>
  (await db.query('DELETE FROM click_batches WHERE created_at_ms < $1', [nowMs - keepMs])).rowCount;
