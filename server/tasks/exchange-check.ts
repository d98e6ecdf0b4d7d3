/**
 * Partner exchange account checks (tasks CHECK_ONUS, CHECK_BINGX): was this exchange UID
 * registered through our referral link? Contract (docs/outside-services.md):
 * `GET <checkUrl>?uid=<uid>` with header `x-api-key: <key>` answers 200 `{ "registered": boolean }`.
 */
import { asRecord, OutsideServiceError, requestJson, requireSettings } from '../core/outside-http.ts';

export type ExchangeHandleType = 'CHECK_ONUS' | 'CHECK_BINGX';

export interface ExchangeEndpoint {
  checkUrl: string;
  apiKey: string;
}

export interface ExchangeCheckOptions {
  endpoints: Record<ExchangeHandleType, ExchangeEndpoint>;
  timeoutMs: number;
}

/** An exchange UID: 1–64 letters, digits, '-' or '_' (both partners use numeric UIDs today). */
export const isExchangeUid = (uid: string): boolean => /^[A-Za-z0-9_-]{1,64}$/.test(uid);

export const isExchangeHandleType = (h: unknown): h is ExchangeHandleType => h === 'CHECK_ONUS' || h === 'CHECK_BINGX';

/**
 * True when the partner says the UID registered via our link; false when it says no.
 * Throws OutsideServiceError when unconfigured, unreachable, slow or answering garbage.
 */
export const checkExchangeAccount = async (opts: ExchangeCheckOptions, handleType: ExchangeHandleType, uid: string): Promise<boolean> => {
  const service = handleType === 'CHECK_ONUS' ? 'onus' : 'bingx';
  const endpoint = opts.endpoints[handleType];
  requireSettings(service, { [`${service.toUpperCase()}_CHECK_URL`]: endpoint.checkUrl, [`${service.toUpperCase()}_API_KEY`]: endpoint.apiKey });
  if (!isExchangeUid(uid)) return false;
  const url = new URL(endpoint.checkUrl);
  url.searchParams.set('uid', uid);
  const answer = await requestJson(service, url.toString(), { headers: { 'x-api-key': endpoint.apiKey, accept: 'application/json' } }, opts.timeoutMs);
  if (answer.status !== 200) throw new OutsideServiceError(service, 'bad-response', `status ${answer.status}`);
  const registered = asRecord(service, answer.body).registered;
  if (typeof registered !== 'boolean') throw new OutsideServiceError(service, 'bad-response', 'no boolean "registered"');
  return registered;
};
