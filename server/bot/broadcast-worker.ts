/**
 * Sends queued broadcasts: a few lanes each wait for a pacer slot, claim one recipient, send, and
 * record Telegram's answer in one UPDATE. Resumable: all state is in broadcast_recipients, so a new
 * worker after a restart carries on where the old one stopped.
 */
import { randomBytes } from 'node:crypto';
import { Api, GrammyError, HttpError } from 'grammy';
import type { Clock } from '../core/clock.ts';
import type { Db } from '../core/db/db.ts';
import { inlineKeyboard, type Broadcast } from './broadcast-payload.ts';
import { claimNext, loadBroadcast, queueDepth, recordOutcome, recoverAbandoned, releaseClaim, type ClaimedRecipient, type SendOutcome } from './broadcast-store.ts';
import { broadcastMetrics } from './metrics.ts';
import { createPacer } from './pacer.ts';

export interface BroadcastWorkerOptions {
  db: Db;
  clock: Clock;
  token: string;
  apiRoot: string;
  /** Messages per second across every process's workers for this bot (Telegram: about 30). */
  ratePerSecond: number;
  /** Sends in flight at once, so a slow Bot API still reaches the rate. */
  concurrency: number;
  /** A row 'sending' for longer than this belongs to a dead worker (must exceed the send timeout). */
  leaseMs: number;
  /** How often an idle worker looks for new work. */
  idlePollMs: number;
  /** Bot API call timeout, seconds. */
  timeoutSeconds: number;
  log?: (message: string) => void;
}

export interface BroadcastWorker {
  readonly id: string;
  /**
   * Stops claiming; waits for sends in flight to be recorded. After `deadlineMs` the lanes are
   * abandoned like a crashed process: their rows stay 'sending' until another worker's lease
   * recovery marks them 'uncertain'.
   */
  stop(opts?: { deadlineMs?: number }): Promise<void>;
}

// Errors raised before the request left this machine: Telegram certainly did not deliver.
const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** Maps a sendMessage failure to what the queue does with the row. */
export const classifySendError = (err: unknown, nowMs: number): SendOutcome => {
  if (err instanceof GrammyError) {
    if (err.error_code === 429) {
      const retryAfterS = err.parameters.retry_after ?? 1;
      return { kind: 'retry', error: err.description, notBeforeMs: nowMs + retryAfterS * 1000 };
    }
    if (err.error_code >= 500) return { kind: 'uncertain', error: `${err.error_code} ${err.description}` };
    return { kind: 'failed', error: `${err.error_code} ${err.description}` };
  }
  if (err instanceof HttpError) {
    const cause = err.error as { code?: string; errno?: string } | undefined;
    const code = cause?.code ?? cause?.errno ?? '';
    if (notSentCodes.has(code)) return { kind: 'retry', error: code, notBeforeMs: nowMs + 1000 };
    return { kind: 'uncertain', error: err.message };
  }
  return { kind: 'uncertain', error: String(err) };
};

export const startBroadcastWorker = (opts: BroadcastWorkerOptions): BroadcastWorker => {
  const id = `w-${randomBytes(6).toString('hex')}`;
  const api = new Api(opts.token, { apiRoot: opts.apiRoot, timeoutSeconds: opts.timeoutSeconds });
  const log = opts.log ?? (() => {});
  const cache = new Map<number, Broadcast | null>();
  let stopping = false;
  let abandoned = false;
  const wakers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const done = () => {
        clearTimeout(t);
        wakers.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      wakers.add(done);
    });
  // One budget per bot, shared by every process's workers through the database.
  const pacer = createPacer({ db: opts.db, name: `telegram:${opts.token.split(':')[0]}`, ratePerSecond: opts.ratePerSecond, now: () => performance.now(), sleep, cancelled: () => stopping, log });

  const broadcastOf = async (broadcastId: number): Promise<Broadcast | null> => {
    if (!cache.has(broadcastId)) cache.set(broadcastId, await loadBroadcast(opts.db, broadcastId));
    return cache.get(broadcastId) ?? null;
  };

  const send = async (row: ClaimedRecipient, b: Broadcast): Promise<SendOutcome> => {
    try {
      const markup = inlineKeyboard(b.buttons);
      const msg = await api.sendMessage(row.chatId, b.message, markup ? { reply_markup: markup } : {});
      return { kind: 'sent', messageId: msg.message_id };
    } catch (err) {
      const outcome = classifySendError(err, opts.clock.now());
      // A 429 is about the bot, not the user: every lane waits.
      if (err instanceof GrammyError && err.error_code === 429) {
        broadcastMetrics.telegram429.inc();
        pacer.pauseUntil(performance.now() + (err.parameters.retry_after ?? 1) * 1000);
      }
      return outcome;
    }
  };

  const lane = async () => {
    while (!stopping) {
      await pacer.slot();
      if (stopping) break;
      let row: ClaimedRecipient | null;
      try {
        row = await claimNext(opts.db, id, opts.clock.now());
      } catch (err) {
        log(`broadcast: claim failed: ${String(err)}`);
        await sleep(opts.idlePollMs);
        continue;
      }
      if (!row) {
        await sleep(opts.idlePollMs);
        continue;
      }
      let b: Broadcast | null;
      try {
        b = await broadcastOf(row.broadcastId);
      } catch (err) {
        log(`broadcast: could not load ${row.broadcastId}: ${String(err)}`);
        await releaseClaim(opts.db, row, id).catch(() => {});
        await sleep(opts.idlePollMs);
        continue;
      }
      // The send is counted against the shared rate now, right before it leaves (the claim may have
      // taken a while); a long wait (a 429 pause) gives the row back instead.
      const counted = b === null || (await pacer.take());
      // Another lane may have met a 429 while this one claimed, or stop() was called: give the row
      // back, untried. Nothing is awaited between this check and the request.
      if (!counted || pacer.isPaused() || stopping) {
        await releaseClaim(opts.db, row, id).catch((err: unknown) => log(`broadcast: release failed: ${String(err)}`));
        continue;
      }
      const outcome = b === null ? ({ kind: 'failed', error: 'broadcast not found' } as const) : await send(row, b);
      broadcastMetrics.messages.inc({ outcome: outcome.kind });
      // A crashed process records nothing; an abandoned lane behaves the same.
      if (abandoned) return;
      try {
        await recordOutcome(opts.db, row, id, outcome, opts.clock.now());
      } catch (err) {
        log(`broadcast: could not record ${row.broadcastId}/${row.chatId}: ${String(err)}`);
      }
    }
  };

  const recovery = async () => {
    while (!stopping) {
      try {
        const n = await recoverAbandoned(opts.db, opts.leaseMs, opts.clock.now());
        if (n) log(`broadcast: ${n} recipient(s) of a stopped worker marked uncertain`);
        // Sampled here, off any request path (docs/operations.md, MoneyBroadcastQueueStuck).
        broadcastMetrics.queueDepth.set(await queueDepth(opts.db));
      } catch (err) {
        log(`broadcast: recovery failed: ${String(err)}`);
      }
      await sleep(Math.max(opts.idlePollMs, Math.min(opts.leaseMs, 30_000)));
    }
  };

  const running = Promise.all([recovery(), ...Array.from({ length: opts.concurrency }, lane)]);

  return {
    id,
    stop: async ({ deadlineMs } = {}) => {
      stopping = true;
      for (const wake of [...wakers]) wake();
      if (deadlineMs === undefined) {
        await running;
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        running.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), deadlineMs);
        }),
      ]);
      clearTimeout(timer);
      if (!finished) abandoned = true;
    },
  };
};
