/**
 * Steady click load from many players, as the mini-app's outbox sends it (docs/faults.md "When the
 * database is away"): each player sends one batch at a time with its own `batchId` and resends the
 * same batch until a 200 acknowledges it. A 503 with Retry-After is waited out and resent; an
 * answer that never came (a connection cut, a 502 from a process killed mid-request) is resent
 * too, which is safe because the batch id makes the credit happen once. Everything else is a
 * failure the tests assert there is none of. Used by tests/e2e/ha/ and bench/failover.bench.ts.
 */
import type { ClickResult } from '../../../engine/wire/api-types.ts';
import { initDataOf, launchUrl } from '../../../server/dev/launch-url.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Ack {
  userId: number;
  accepted: number;
  /** performance.now() when the 200 arrived. */
  at: number;
  /** performance.now() when the request that got it was sent. */
  sentAt: number;
  /** performance.now() when the batch was first sent (before any resend). */
  firstSentAt: number;
}

export interface ClickLoad {
  /** batchId → its acknowledgement (the first 200; a replay answers the same). */
  readonly acknowledged: Map<string, Ack>;
  /** 503 answers: their Retry-After and body `code`, and when they came. */
  readonly unavailable: { retryAfter: string | null; code: unknown; at: number }[];
  /** Answers that never came (connection errors, 502/504 from HAProxy), each resent. */
  readonly lostAnswers: { what: string; at: number }[];
  /** Anything else: the tests expect none. */
  readonly failures: string[];
  /** Resolves once `n` more batches are acknowledged than now. */
  acksAfter(n: number): Promise<void>;
  /** Stops sending once every player's batch in flight is acknowledged. */
  stop(): Promise<void>;
}

export interface LoadOptions {
  /** Where to send (a MONEY process or HAProxy's API port); read at each send, so it may change. */
  base: () => string;
  botToken: string;
  userIds: number[];
  /** The server's clock at the init data's signing. */
  nowMs: number;
  /** Prefix of this run's batch ids. */
  prefix: string;
  /** Pause between a player's batches (ms). */
  pauseMs?: number;
}

export const startClickLoad = (o: LoadOptions): ClickLoad => {
  const acknowledged = new Map<string, Ack>();
  const unavailable: ClickLoad['unavailable'] = [];
  const lostAnswers: ClickLoad['lostAnswers'] = [];
  const failures: string[] = [];
  let stopping = false;
  const player = async (userId: number) => {
    const auth = `tma ${initDataOf(launchUrl({ publicUrl: o.base(), botToken: o.botToken, user: { id: userId, first_name: `P${userId}`, username: `p${userId}`, language_code: 'en' }, nowMs: o.nowMs }))}`;
    for (let seq = 1; !stopping; seq++) {
      const batchId = `${o.prefix}-${userId}-${seq}`;
      const firstSentAt = performance.now();
      for (;;) {
        const sentAt = performance.now();
        const res = await fetch(`${o.base()}/money/api/v1/airdrop/click`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ click: 1, batchId, seq }),
          // Far past the documented bound of a click's answer (statement timeout + 1 s): a hang is a lost answer.
          signal: AbortSignal.timeout(15_000),
        }).catch((err: unknown) => err as Error);
        const at = performance.now();
        if (res instanceof Error) {
          const cause = (res as { cause?: { message?: string; code?: string } }).cause;
          lostAnswers.push({ what: `${batchId}: ${res.message}${cause !== undefined ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`, at });
          await sleep(200);
          continue;
        }
        const text = await res.text();
        if (res.status === 200) {
          acknowledged.set(batchId, { userId, accepted: (JSON.parse(text) as ClickResult).accepted, at, sentAt, firstSentAt });
          break;
        }
        if (res.status === 503) {
          let code: unknown;
          try {
            code = (JSON.parse(text) as { code?: unknown }).code;
          } catch {
            code = text.slice(0, 80);
          }
          unavailable.push({ retryAfter: res.headers.get('retry-after'), code, at });
          // A fifth of Retry-After: the tests and bench:failover look for the first moment writes
          // work again, which a full second's wait would blur.
          await sleep(Number(res.headers.get('retry-after') ?? '1') * 200);
        } else if (res.status === 502 || res.status === 504) {
          lostAnswers.push({ what: `${batchId}: ${res.status}`, at });
          await sleep(200);
        } else {
          failures.push(`${batchId}: ${res.status} ${text.slice(0, 200)}`);
          await sleep(200);
        }
      }
      await sleep(o.pauseMs ?? 50);
    }
  };
  const running = o.userIds.map(player);
  return {
    acknowledged,
    unavailable,
    lostAnswers,
    failures,
    acksAfter: async (n) => {
      const target = acknowledged.size + n;
      while (acknowledged.size < target) await sleep(20);
    },
    stop: async () => {
      stopping = true;
      await Promise.all(running);
    },
  };
};

/** Per player: the batches acknowledged and the taps they accepted. */
export const expectedOf = (acks: Map<string, Ack>): Map<number, { batches: Set<string>; taps: number }> => {
  const out = new Map<number, { batches: Set<string>; taps: number }>();
  for (const [batchId, a] of acks) {
    const e = out.get(a.userId) ?? { batches: new Set<string>(), taps: 0 };
    e.batches.add(batchId);
    e.taps += a.accepted;
    out.set(a.userId, e);
  }
  return out;
};

export interface LedgerCheck {
  /** Acknowledged batches that credited taps but have no click row in the ledger. */
  lost: string[];
  /** Batches with more than one click row, or more than one click_batches row. */
  doubled: string[];
  /** Batches of `prefixes` in the database that no player saw acknowledged. */
  unacknowledged: string[];
  /** Players whose totalClick is not the sum of their acknowledged taps. */
  wrongTotals: string[];
}

/**
 * Reads the ledger on `db` (a leader, asked directly) for the players of `acks`: every batch that
 * accepted taps has exactly one 'click' ledger row and one click_batches row, and each player's
 * total_click is the taps acknowledged. `prefixes` are the batch-id prefixes of the runs whose
 * every batch was acknowledged (a load that was stopped acknowledges its last batch first).
 */
export const checkLedger = async (
  run: (text: string, params: unknown[]) => Promise<object[]>,
  acks: Map<string, Ack>,
  prefixes: string[],
): Promise<LedgerCheck> => {
  const query = async <T>(text: string, params: unknown[]) => (await run(text, params)) as T[];
  const userIds = [...new Set([...acks.values()].map((a) => a.userId))];
  const rows = await query<{ reference: string; n: number }>(
    "SELECT reference, count(*)::int AS n FROM ledger WHERE kind = 'click' AND user_id = ANY($1::bigint[]) GROUP BY reference",
    [userIds],
  );
  const batches = await query<{ batch_id: string; n: number }>('SELECT batch_id, count(*)::int AS n FROM click_batches WHERE user_id = ANY($1::bigint[]) GROUP BY batch_id', [userIds]);
  const totals = await query<{ id: string; total_click: string }>('SELECT id::text, total_click::text FROM users WHERE id = ANY($1::bigint[])', [userIds]);
  const ledgerRows = new Map(rows.map((r) => [r.reference, r.n]));
  const batchRows = new Map(batches.map((r) => [r.batch_id, r.n]));
  const lost: string[] = [];
  const doubled: string[] = [];
  for (const [batchId, a] of acks) {
    const n = ledgerRows.get(batchId) ?? 0;
    if (a.accepted > 0 && n === 0) lost.push(batchId);
    if (n > 1 || (batchRows.get(batchId) ?? 0) > 1) doubled.push(batchId);
    if ((batchRows.get(batchId) ?? 0) === 0) lost.push(batchId);
  }
  const unacknowledged = [...batchRows.keys()].filter((id) => prefixes.some((p) => id.startsWith(`${p}-`)) && !acks.has(id));
  const expected = expectedOf(acks);
  const wrongTotals = totals
    .filter((t) => Number(t.total_click) !== (expected.get(Number(t.id))?.taps ?? 0))
    .map((t) => `${t.id}: ${t.total_click} stored, ${expected.get(Number(t.id))?.taps ?? 0} acknowledged`);
  return { lost: [...new Set(lost)], doubled, unacknowledged, wrongTotals };
};
