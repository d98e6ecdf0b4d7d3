// The real engine worker with its fetch relayed to the page: the page answers every call from one
// fake API (tests/browser/relay-api.ts) that outlives the worker, so a test can close the app
// (terminate the worker) and open it again against the same server, which remembers the batchIds
// it credited. Relay messages (`relayApi` out, `relayAnswer` in) are ones comlink ignores.
import { apiPrefix } from '../../engine/wire/api-types.ts';
import '../../engine/client/worker.ts';

export interface RelayRequest {
  id: number;
  method: string;
  path: string;
  body?: unknown;
  authorization: string | null;
  deviceId: string | null;
}

export type RelayAnswer = { id: number; status: number; body: unknown } | { id: number; network: true };

const scope = globalThis as unknown as {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<{ relayAnswer?: RelayAnswer }>) => void): void;
};
const waiting = new Map<number, (answer: RelayAnswer) => void>();
let nextId = 0;

scope.addEventListener('message', (event) => {
  const answer = event.data?.relayAnswer;
  if (!answer) return;
  waiting.get(answer.id)?.(answer);
  waiting.delete(answer.id);
});

globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(String(input), 'http://fake');
  const headers = new Headers(init?.headers);
  const request: RelayRequest = {
    id: ++nextId,
    method: init?.method ?? 'GET',
    path: url.pathname.slice(apiPrefix.length),
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
    authorization: headers.get('authorization'),
    deviceId: headers.get('x-device-id'),
  };
  return new Promise((resolve, reject) => {
    waiting.set(request.id, (answer) => {
      if ('network' in answer) reject(new TypeError('Failed to fetch'));
      else resolve(new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } }));
    });
    scope.postMessage({ relayApi: request });
  });
};
