import type { ErrorBody } from '../../engine/api-types.ts';
import type { DomainError, DomainErrorKind } from './errors.ts';

/** A refusal with its HTTP status: the error handler turns it into `{ error, message, field? }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new HttpError(400, 'Bad Request', message, field);
export const unauthorized = (message: string) => new HttpError(401, 'Unauthorized', message);
export const forbidden = (message: string) => new HttpError(403, 'Forbidden', message);
export const notFound = (message: string, field?: string) => new HttpError(404, 'Not Found', message, field);
export const conflict = (message: string, field?: string) => new HttpError(409, 'Conflict', message, field);
export const unavailable = (message: string) => new HttpError(503, 'Service Unavailable', message);

/** The one map from a rule's refusal to its HTTP answer. */
const answerOfKind: Record<DomainErrorKind, (message: string, field?: string) => HttpError> = {
  invalid: badRequest,
  'not-found': notFound,
  conflict,
  unavailable,
};

/** A domain refusal as the HTTP error it is answered with. */
export const toHttpError = (e: DomainError): HttpError => answerOfKind[e.kind](e.message, e.field);

export const body = (e: HttpError): ErrorBody => ({
  error: e.error,
  message: e.message,
  ...(e.field !== undefined ? { field: e.field } : {}),
});
