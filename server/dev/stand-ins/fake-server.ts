/**
 * A tiny HTTP server on 127.0.0.1 with a random port, the base of every fake outside service.
 * The fakes speak real HTTP so our clients run unchanged (no mocking of our own code).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The raw body text. */
  body: string;
  /** The body parsed as JSON or form data (empty object when neither). */
  fields: Record<string, unknown>;
}

export interface FakeReply {
  status?: number;
  json?: unknown;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering (timeouts, slow partners). */
  delayMs?: number;
}

export type FakeHandler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  close(): Promise<void>;
}

const parseFields = (body: string, type: string | undefined): Record<string, unknown> => {
  if (!body) return {};
  if (type?.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  if (type?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  return {};
};

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** Starts a fake on 127.0.0.1:0; `close()` also drops held (delayed) connections. */
export const startFakeServer = async (handler: FakeHandler): Promise<FakeServer> => {
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = await readBody(req);
      const fakeReq: FakeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        fields: parseFields(body, req.headers['content-type']),
      };
      requests.push(fakeReq);
      let reply: FakeReply;
      try {
        reply = await handler(fakeReq);
      } catch (err) {
        reply = { status: 500, json: { error: String(err) } };
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.json === undefined ? '' : JSON.stringify(reply.json));
      };
      if (reply.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, reply.delayMs);
        timers.add(t);
      } else send();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
