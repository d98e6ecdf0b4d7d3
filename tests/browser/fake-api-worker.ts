// The real engine worker with its fetch answered in-process by a fake API server (InMemoryTransport on
// the real clock), so the browser test runs the real worker, engine, transport and IndexedDB.
// Each call is also posted to the page as `{ fakeApi: … }`, which comlink ignores.
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { InMemoryTransport } from '../../engine/client/testing/in-memory-transport.ts';
import '../../engine/client/worker.ts';

const scope = globalThis as unknown as { name: string; postMessage(message: unknown): void };
// `clicks-fail`: the status answers, then every /click fails as if the network dropped.
const clicksFail = scope.name === 'clicks-fail';
const server = new InMemoryTransport({ now: () => Date.now() }, { start: { totalEarn: '50', availableEnergy: 100 } });

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(String(input), 'http://fake');
  const path = url.pathname.slice(apiPrefix.length);
  const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
  const authorization = new Headers(init?.headers).get('authorization');
  scope.postMessage({ fakeApi: { method: init?.method ?? 'GET', path, body, authorization } });
  if (clicksFail && path === '/click') throw new TypeError('Failed to fetch');
  if (path === '') return json(await server.getStatus());
  if (path === '/click') return json(await server.click(body as { click: number; batchId: string; seq: number }));
  if (path === '/claim') return json(await server.claim());
  if (path === '/update-level') {
    const result = await server.updateLevel(body?.levelKey as number);
    return result.ok ? json(result.status) : json({ error: 'UpgradeRefused', message: result.message }, 400);
  }
  return json({ error: 'NotFound', message: path }, 404);
};
