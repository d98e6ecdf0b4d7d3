import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { InMemoryTransport, type InMemoryTransportOptions } from '../../engine/client/testing/in-memory-transport.ts';

/** A fake of the API server on 127.0.0.1, speaking spec §7 over real HTTP, backed by InMemoryTransport. */
export interface FakeApi {
  base: string;
  game: InMemoryTransport;
  /** The Authorization header of every request, in order. */
  authorizations: string[];
  /** Answers every request with this status while set (e.g. 503 for an outage). */
  outage: number | null;
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage): Promise<unknown> => {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? JSON.parse(text) : undefined;
};

export const startFakeApi = async (options: InMemoryTransportOptions = {}): Promise<FakeApi> => {
  const game = new InMemoryTransport({ now: () => Date.now() }, options);
  const api: FakeApi = { base: '', game, authorizations: [], outage: null, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      api.authorizations.push(req.headers.authorization ?? '');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(JSON.stringify(body));
      };
      if (api.outage) return send(api.outage, { error: 'Unavailable', message: 'down' });
      const path = (req.url ?? '').slice(apiPrefix.length);
      const body = (await readBody(req)) as Record<string, unknown> | undefined;
      if (req.method === 'GET' && path === '') return send(200, await game.getStatus());
      if (req.method === 'POST' && path === '/click') {
        const { click, batchId, seq } = body ?? {};
        if (!Number.isInteger(click) || typeof batchId !== 'string' || !Number.isInteger(seq)) {
          return send(400, { error: 'BadRequest', message: 'click must be a whole number', field: 'click' });
        }
        return send(200, await game.click({ click: click as number, batchId, seq: seq as number }));
      }
      if (req.method === 'POST' && path === '/claim') return send(200, await game.claim());
      if (req.method === 'POST' && path === '/update-level') {
        const result = await game.updateLevel(body?.levelKey as number);
        return result.ok ? send(200, result.status) : send(400, { error: 'UpgradeRefused', message: result.message });
      }
      send(404, { error: 'NotFound', message: `no route ${req.method} ${path}` });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}${apiPrefix}`;
  api.close = () => new Promise((resolve) => server.close(() => resolve()));
  return api;
};
