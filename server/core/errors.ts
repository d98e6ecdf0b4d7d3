/**
 * A refusal is data (docs/api.md "Errors"): a stable code from engine/wire/refusals.ts, the input it is
 * about, the values its English names and what went wrong underneath. Features and core throw
 * `refuse(code, …)` and never name an HTTP status: the edge (server/routes/error-handler.ts) looks
 * the code up in its one table and answers `{ error, message, field?, code }`.
 */
import { refusalMessage, type RefusalCode, type RefusalValues } from '../../engine/wire/refusals.ts';

export interface RefusalDetails {
  /** The input the refusal is about: the body's `field`, and `{field}` in the English. */
  readonly field?: string | undefined;
  /** The other `{name}`s of the English (a task id, a price). */
  readonly values?: RefusalValues;
  /** What went wrong underneath (an outside fault, a constraint): logged, never sent. */
  readonly cause?: unknown;
  /** Every bad field of a form at once, `{ field: problem }` (the console's task form). */
  readonly fields?: Readonly<Record<string, string>>;
  /** Seconds the client should wait before asking again, when a setting decides it (SHED_RETRY_AFTER_S); else the edge's table. */
  readonly retryAfterS?: number;
}

/** A request refused by a rule; `message` is the code's English with its values filled in. */
export class Refusal extends Error {
  override readonly name = 'Refusal';
  readonly field: string | undefined;
  readonly values: RefusalValues;
  readonly fields: Readonly<Record<string, string>> | undefined;
  readonly retryAfterS: number | undefined;

  constructor(
    readonly code: RefusalCode,
    details: RefusalDetails = {},
  ) {
    const values = details.field === undefined ? (details.values ?? {}) : { field: details.field, ...details.values };
    super(refusalMessage(code, values), details.cause === undefined ? undefined : { cause: details.cause });
    this.field = details.field;
    this.values = values;
    this.fields = details.fields;
    this.retryAfterS = details.retryAfterS;
  }
}

/** The refusal `code`, e.g. `throw refuse('taskNotFound', { field: 'task_id', values: { taskId } })`. */
export const refuse = (code: RefusalCode, details?: RefusalDetails): Refusal => new Refusal(code, details);
