/**
 * The storage layer's own errors. A query that failed because the database cannot be reached (or
 * answered too slowly) becomes `DbUnavailable`; the route edge answers it 503 with Retry-After
 * (docs/faults.md "When the database is away"). Anything else keeps its PostgreSQL error unchanged.
 */

/** The database is down, restarting, unreachable, out of connections or too slow: try again soon. */
export class DbUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DbUnavailable';
  }
}

// SQLSTATE classes and codes that say "the server, not the statement": connection exceptions
// (08…), operator intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 starting up),
// too many connections, the statement timeout (57014 query_canceled), and a statement sent to a
// standby (25006 read_only_sql_transaction): during a failover the write port briefly reaches a
// member not yet promoted (docs/operations.md "Failover, switchover and rejoin"), and PostgreSQL refuses it, changing nothing.
const unavailableCodes = new Set(['57P01', '57P02', '57P03', '53300', '57014', '25006']);
// Node socket errors and the messages `pg` and `pg-pool` raise without a SQLSTATE.
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const pgMessages =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|Cannot use a pool after calling end|connection timeout/i;

/** True when `err` says the database could not be reached, not that the statement was wrong. */
export const isUnavailable = (err: unknown): boolean => {
  if (err instanceof DbUnavailable) return true;
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (unavailableCodes.has(code) || code.startsWith('08') || socketCodes.has(code)) return true;
  // Node wraps several failed connection attempts (IPv4 and IPv6) in one AggregateError.
  if (Array.isArray(e.errors) && e.errors.some(isUnavailable)) return true;
  return typeof e.message === 'string' && pgMessages.test(e.message);
};

/**
 * True when a failed statement is known to have changed nothing (docs/faults.md "An answer lost
 * after the commit"): PostgreSQL answered it with an ERROR, so the statement and its transaction
 * rolled back (a statement timeout, a deadlock, a constraint), or it never reached a connection
 * (the pool's wait ran out, the server refused or was never found). Anything else that cut a
 * statement short — the client's read timeout, a reset or closed connection, a FATAL sent as the
 * server went down — may have come after PostgreSQL committed it.
 */
export const provenNotApplied = (err: unknown): boolean => {
  if (err instanceof CommitUnknown) return false;
  const e = (err instanceof DbUnavailable ? err.cause : err) as { severity?: unknown; code?: unknown; message?: unknown } | null;
  if (typeof e !== 'object' || e === null) return false;
  if (e.severity === 'ERROR') return true;
  if (typeof e.code === 'string' && notSentCodes.has(e.code)) return true;
  return typeof e.message === 'string' && notSentMessages.test(e.message);
};
// Failures before a statement was sent: no connection, or the pool's wait for one ran out.
const notSentCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', '53300', '57P03']);
const notSentMessages = /timeout exceeded when trying to connect|Connection terminated due to connection timeout|Cannot use a pool after calling end|not queryable/i;

/**
 * A COMMIT (or an autocommitted write) whose answer was lost: the database may have stored it.
 * The click path answers it `outcomeUnknown`, never `databaseAway` (docs/api.md "Errors").
 */
export class CommitUnknown extends DbUnavailable {
  constructor(cause: unknown) {
    super(`database unavailable, the commit's outcome unknown: ${(cause as Error | null)?.message ?? String(cause)}`, { cause });
    this.name = 'CommitUnknown';
  }
}

/** `err` as it should leave a write that was sent: `CommitUnknown` unless it is proven to have changed nothing. */
export const commitFailure = (err: unknown): unknown => (provenNotApplied(err) || !isUnavailable(err) ? err : new CommitUnknown(err));

/** Rethrows a driver error as DbUnavailable when it is one, keeping the original as `cause`. */
export const storageError = (err: unknown): unknown =>
  isUnavailable(err) && !(err instanceof DbUnavailable) ? new DbUnavailable(`database unavailable: ${(err as Error).message}`, { cause: err }) : err;

/** Which bound a driver error hit, for the metrics: the wait for a connection, the statement timeout, or neither. */
export const timeoutOf = (err: unknown): 'connect' | 'statement' | null => {
  if (typeof err !== 'object' || err === null) return null;
  const { code, message } = err as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  // 57014 is query_canceled: the server's statement_timeout; the client's query_timeout says "Query read timeout".
  if (code === '57014' || /Query read timeout/i.test(text)) return 'statement';
  if (/timeout exceeded when trying to connect|connection timeout/i.test(text)) return 'connect';
  return null;
};
