import { deviceIdHeader } from '../../wire/airdrop-review.ts';
import type { ClaimResult, ClickResult, UserStatus } from '../../wire/api-types.ts';
import { parseBody, refusalOf } from '../../wire/error-body.ts';
import type { Refusal } from '../../wire/refusals.ts';
import { isRetryableStatus, TransportError, type TapBatch, type Transport, type UpdateLevelResult } from '../ports.ts';

export interface FetchTransportOptions {
  /** The API base, e.g. `/money/api/v1/airdrop` or `http://127.0.0.1:3000/money/api/v1/airdrop`. */
  apiBase: string;
  /** Telegram's raw init data, sent as `Authorization` on every call (docs/rules.md §8). */
  initData: string;
  /** The random device id the page keeps in web storage, sent as `x-device-id` on every call (docs/airdrop.md "Integrity review"). */
  deviceId?: string;
  /** A call that takes longer is abandoned and retried like a network failure. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** §8: the refusal of a non-2xx answer, whatever shape its body has (an empty message when it has none). */
const refusalIn = (text: string): Refusal => refusalOf(parseBody(text)) ?? { message: '' };

const transportError = (text: string, status: number, retryable: boolean): TransportError => {
  const { message, ...refusal } = refusalIn(text);
  return new TransportError(message || `HTTP ${status}`, status, retryable, refusal);
};

/** The engine's transport over fetch, against the API server of spec §7. */
export const createFetchTransport = (options: FetchTransportOptions): Transport => {
  const base = options.apiBase.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  const request = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> => {
    const headers: Record<string, string> = { Authorization: options.initData };
    if (options.deviceId !== undefined) headers[deviceIdHeader] = options.deviceId;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await doFetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new TransportError(`${method} ${path || '/'} failed: ${(error as Error).message}`, null, true);
    }
  };

  const json = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const response = await request(method, path, body);
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      throw transportError(text, response.status, isRetryableStatus(response.status));
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new TransportError(`${method} ${path || '/'} answered non-JSON`, response.status, true);
    }
  };

  const transport: Transport = {
    getStatus: () => json<UserStatus>('GET', ''),
    click: (payload: TapBatch) => json<ClickResult>('POST', '/click', payload),
    claim: () => json<ClaimResult>('POST', '/claim'),
    async updateLevel(levelKey: number): Promise<UpdateLevelResult> {
      const response = await request('POST', '/update-level', { levelKey });
      const text = await response.text().catch(() => '');
      if (response.status >= 400 && response.status < 500 && !isRetryableStatus(response.status)) {
        return { ok: false, ...refusalIn(text) };
      }
      if (!response.ok) throw transportError(text, response.status, true);
      try {
        return { ok: true, status: JSON.parse(text) as UserStatus };
      } catch {
        // §7 says "JSON or text": a text success still bought the level, so read the status.
        return { ok: true, status: await transport.getStatus() };
      }
    },
  };
  return transport;
};
