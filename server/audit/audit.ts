/**
 * The audit log (docs/admin.md "Audit log"): one row per operator action, append-only in the
 * database, whoever acts: a console admin or the holder of the operator API key. Every feature that
 * takes an operator action records it here, in the action's own transaction.
 */
import type { AuditEntry, Page } from '../../engine/wire/admin-types.ts';
import type { Queryable } from '../core/db/db.ts';

/**
 * Who runs an operator action: a signed-in console admin, or the holder of OPERATOR_API_KEY (the
 * operator API). An action that takes an actor writes its own audit row, in its own transaction.
 */
export type Actor = { kind: 'console'; adminId: number } | { kind: 'operator-key' };

/** The operator API key, as an actor. */
export const operatorKeyActor: Actor = { kind: 'operator-key' };

/** A signed-in console admin, as an actor. */
export const consoleActor = (adminId: number): Actor => ({ kind: 'console', adminId });

/** The admin id that names an actor in stored rows (the audit log's, who set a daily puzzle): 0 is the operator API key (docs/admin.md). */
export const auditAdminId = (actor: Actor): number => (actor.kind === 'console' ? actor.adminId : 0);

export interface AuditRecord {
  actor: Actor;
  action: string;
  target?: string;
  before?: unknown;
  after?: unknown;
  nowMs: number;
}

/** Appends one audit row, in the caller's transaction when it is one, so the action and its record commit together. */
export const recordAudit = async (q: Queryable, r: AuditRecord): Promise<void> => {
  await q.query('INSERT INTO admin_audit (admin_id, at_ms, action, target, before, after) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb)', [
    auditAdminId(r.actor), r.nowMs, r.action, r.target ?? '', r.before === undefined ? null : JSON.stringify(r.before), r.after === undefined ? null : JSON.stringify(r.after),
  ]);
};

/** Newest first, keyset-paged by id (`before`: an id as text, any BIGINT, exact); `action` filters by action name. */
export const listAudit = async (q: Queryable, opts: { before?: string; limit: number; action?: string }): Promise<Page<AuditEntry>> => {
  const r = await q.query<{ id: number; admin_id: number; at_ms: number; action: string; target: string; before: unknown; after: unknown }>(
    `SELECT id, admin_id, at_ms, action, target, before, after FROM admin_audit
      WHERE ($1::bigint IS NULL OR id < $1) AND ($2::text IS NULL OR action = $2)
      ORDER BY id DESC LIMIT $3`,
    [opts.before ?? null, opts.action ?? null, opts.limit + 1],
  );
  const rows = r.rows.slice(0, opts.limit);
  const parse = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);
  return {
    items: rows.map((x) => ({ id: String(x.id), adminId: String(x.admin_id), atMs: Number(x.at_ms), action: x.action, target: x.target, before: parse(x.before), after: parse(x.after) })),
    next: r.rows.length > opts.limit ? String(rows[rows.length - 1]!.id) : null,
  };
};
