import type { ErrorBody } from '../../../engine/wire/api-types.ts';
import { errorMessageOf, parseBody, refusalOf } from '../../../engine/wire/error-body.ts';
import type { Refusal } from '../../../engine/wire/refusals.ts';

/**
 * A small fetch client for the API (§7) with the client error types of §8. It sends the raw
 * Telegram init data as `Authorization` on every call (§6). The fetch function is injectable so
 * component tests can answer at the network boundary.
 */
export const responseErrorMessage = 'Response returned an error code';
export const fetchErrorMessage = 'The request failed and the interceptors did not return an alternative response';

/** A non-2xx answer (§8 "Response error"); `body` holds the server's `{ error, message, field?, code? }` when sent. */
export class ResponseError extends Error {
  override name = 'ResponseError';
  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> | string | null,
  ) {
    super(responseErrorMessage);
  }
  /** The server's own message, when it sent one (the upgrade toast shows it, §8). */
  get serverMessage(): string | null {
    return errorMessageOf(this.body);
  }
  /** The server's refusal with its code and field, for the player in their language (localizeRefusal). */
  get refusal(): Refusal | null {
    return refusalOf(this.body);
  }
}

/** A network failure (§8 "Fetch error"). */
export class FetchError extends Error {
  override name = 'FetchError';
  constructor(override readonly cause: unknown) {
    super(fetchErrorMessage);
  }
}

/** A call made without one of its required arguments (§5 list); names the field. */
export class RequiredError extends Error {
  override name = 'RequiredError';
  constructor(readonly field: string, operation: string) {
    super(`Required parameter ${field} was null or undefined when calling ${operation}.`);
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ApiClientOptions {
  apiBase: string;
  initData: string;
  fetch?: FetchLike;
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<T>;
}

/** Throws the §8 required-parameter error when a value is null or undefined. */
export const required = <T>(value: T | null | undefined, field: string, operation: string): T => {
  if (value === null || value === undefined) throw new RequiredError(field, operation);
  return value;
};

export const createApiClient = ({ apiBase, initData, fetch: fetchImpl }: ApiClientOptions): ApiClient => ({
  async request<T>(path: string, { method = 'GET', query, body }: RequestOptions = {}): Promise<T> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) search.set(k, String(v));
    const url = `${apiBase}${path}${search.size ? `?${search}` : ''}`;
    const headers: Record<string, string> = { Authorization: initData };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await (fetchImpl ?? fetch)(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (cause) {
      throw new FetchError(cause);
    }
    const parsed = parseBody(await response.text());
    // §5: success is any status 200 to 299.
    if (response.status < 200 || response.status > 299) throw new ResponseError(response.status, parsed as Partial<ErrorBody> | string | null);
    return parsed as T;
  },
});
