/**
 * Fake partner exchanges (ONUS, BingX) speaking our check contract (docs/outside-services.md):
 * `GET <checkUrl>?uid=<uid>` with header `x-api-key` answers `{ registered: boolean }`.
 */
import { startFakeServer, type FakeServer } from './fake-server.ts';

export type FakeExchangeName = 'onus' | 'bingx';

export interface FakeExchanges extends FakeServer {
  checkUrl(name: FakeExchangeName): string;
  apiKey: string;
  register(name: FakeExchangeName, uid: string): void;
  /** `delayMs` answers late; `status` forces an error status (e.g. 503). */
  settings: { delayMs: number; status: number };
}

/** The config that points both exchange checks at these fakes. */
export const exchangeSettings = (ex: FakeExchanges) => ({
  ONUS_CHECK_URL: ex.checkUrl('onus'),
  ONUS_API_KEY: ex.apiKey,
  BINGX_CHECK_URL: ex.checkUrl('bingx'),
  BINGX_API_KEY: ex.apiKey,
});

export const startFakeExchanges = async (apiKey = 'exchange-key'): Promise<FakeExchanges> => {
  const registered: Record<FakeExchangeName, Set<string>> = { onus: new Set(), bingx: new Set() };
  const settings = { delayMs: 0, status: 200 };
  const server = await startFakeServer((req) => {
    const match = /^\/(onus|bingx)\/check$/.exec(req.path);
    if (!match) return { status: 404, json: {} };
    if (req.headers['x-api-key'] !== apiKey) return { status: 401, json: { error: 'bad key' } };
    if (settings.status !== 200) return { status: settings.status, delayMs: settings.delayMs, json: { error: 'down' } };
    const uid = req.query.get('uid') ?? '';
    return { delayMs: settings.delayMs, json: { registered: registered[match[1] as FakeExchangeName].has(uid) } };
  });
  return {
    ...server,
    checkUrl: (name) => `${server.url}/${name}/check`,
    apiKey,
    register: (name, uid) => void registered[name].add(uid),
    settings,
  };
};
