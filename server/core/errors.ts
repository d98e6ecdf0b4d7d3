/**
 * The refusals of the rules, typed by what went wrong and never by an HTTP status: the edge
 * (server/core/http-errors.ts) maps each kind to its status in one place.
 */
export type DomainErrorKind = 'invalid' | 'not-found' | 'conflict' | 'unavailable';

/** A rule refused the request; `field` names the input it is about. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The input breaks a rule (a bad value, a locked task, not enough MONEY). */
export const invalid = (message: string, field?: string) => new DomainError('invalid', message, field);
/** The thing the input names does not exist. */
export const notFound = (message: string, field?: string) => new DomainError('not-found', message, field);
/** The request clashes with the current state (already claimed, already linked). */
export const conflict = (message: string, field?: string) => new DomainError('conflict', message, field);
/** A check the rule needs cannot run right now (an outside service is away). */
export const unavailable = (message: string) => new DomainError('unavailable', message);
