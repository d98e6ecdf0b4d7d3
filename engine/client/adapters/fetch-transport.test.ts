import { describe, expect, it } from 'vitest';
import { TransportError } from '../ports.ts';
import { createFetchTransport } from './fetch-transport.ts';
import { playerKey } from './indexed-db-tap-store.ts';

type Seen = { url: string; init: RequestInit };

const transportAnswering = (status: number, body: string) => {
  const seen: Seen[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return new Response(body, { status });
  }) as typeof globalThis.fetch;
  return { seen, transport: createFetchTransport({ apiBase: '/money/api/v1/airdrop/', initData: 'user=1&hash=x', fetch }) };
};

const failure = async (promise: Promise<unknown>): Promise<TransportError> => {
  try {
    await promise;
  } catch (error) {
    return error as TransportError;
  }
  throw new Error('expected a failure');
};

describe('fetch transport', () => {
  it('posts a click batch as JSON with the raw init data as Authorization', async () => {
    const { seen, transport } = transportAnswering(200, JSON.stringify({ batchId: 'b1', accepted: 2, status: {} }));
    expect(await transport.click({ click: 2, batchId: 'b1', seq: 1 })).toMatchObject({ accepted: 2 });
    expect(seen[0]!.url).toBe('/money/api/v1/airdrop/click');
    expect(seen[0]!.init.method).toBe('POST');
    expect(seen[0]!.init.body).toBe('{"click":2,"batchId":"b1","seq":1}');
    expect(seen[0]!.init.headers).toMatchObject({ Authorization: 'user=1&hash=x', 'Content-Type': 'application/json' });
  });

  it('reads the status from the API root', async () => {
    const { seen, transport } = transportAnswering(200, '{"id":"1"}');
    expect(await transport.getStatus()).toEqual({ id: '1' });
    expect(seen[0]!.url).toBe('/money/api/v1/airdrop');
    expect(seen[0]!.init.method).toBe('GET');
  });

  it('marks 5xx, 401 and 429 retryable and other 4xx not, with the server message', async () => {
    for (const [status, retryable] of [[503, true], [401, true], [429, true], [400, false], [404, false]] as const) {
      const error = await failure(transportAnswering(status, '{"error":"E","message":"why"}').transport.claim());
      expect(error).toBeInstanceOf(TransportError);
      expect({ status: error.status, retryable: error.retryable, message: error.message }).toEqual({ status, retryable, message: 'why' });
    }
  });

  it('turns a network failure into a retryable error', async () => {
    const fetch = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof globalThis.fetch;
    const error = await failure(createFetchTransport({ apiBase: '/api', initData: 'x', fetch }).getStatus());
    expect({ status: error.status, retryable: error.retryable }).toEqual({ status: null, retryable: true });
  });

  it('answers an upgrade refusal with the server message (JSON or text), and success with the status', async () => {
    expect(await transportAnswering(400, '{"error":"E","message":"Not enough money"}').transport.updateLevel(2)).toEqual({ ok: false, message: 'Not enough money' });
    expect(await transportAnswering(400, 'Max level').transport.updateLevel(2)).toEqual({ ok: false, message: 'Max level' });
    expect(await transportAnswering(200, '{"fingerLevel":2}').transport.updateLevel(1)).toEqual({ ok: true, status: { fingerLevel: 2 } });
    expect((await failure(transportAnswering(502, '').transport.updateLevel(1))).retryable).toBe(true);
  });

  it('carries the refusal code and field the server sent, and drops a code it does not know', async () => {
    const refused = '{"error":"Bad Request","message":"Not enough money for this upgrade","field":"levelKey","code":"upgradeUnaffordable"}';
    expect(await transportAnswering(400, refused).transport.updateLevel(5)).toEqual({
      ok: false,
      message: 'Not enough money for this upgrade',
      field: 'levelKey',
      code: 'upgradeUnaffordable',
    });
    const unknown = '{"error":"Bad Request","message":"Something new","code":"notACodeWeKnow"}';
    expect(await transportAnswering(400, unknown).transport.updateLevel(5)).toEqual({ ok: false, message: 'Something new' });
    const error = await failure(transportAnswering(423, '{"error":"Locked","message":"frozen","code":"frozen"}').transport.claim());
    expect({ code: error.code, field: error.field, message: error.message, retryable: error.retryable }).toEqual({ code: 'frozen', field: undefined, message: 'frozen', retryable: false });
  });
});

describe('tap store key', () => {
  it('is the Telegram user id from the init data, or one shared slot without it', () => {
    expect(playerKey(`user=${encodeURIComponent('{"id":42,"first_name":"A"}')}&hash=x`)).toBe('user:42');
    expect(playerKey('auth_date=1&hash=x')).toBe('user:unknown');
    expect(playerKey('user=not-json')).toBe('user:unknown');
  });
});

describe('fetch transport: the device id', () => {
  it('sends the page’s device id as x-device-id with every call, and none when it has none', async () => {
    const seen: RequestInit[] = [];
    const fetch = (async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response('{"batchId":"b1","accepted":1,"status":{}}', { status: 200 });
    }) as typeof globalThis.fetch;
    const withId = createFetchTransport({ apiBase: '/api', initData: 'x', deviceId: 'AAAAAAAAAAAAAAAAAAAAAA', fetch });
    await withId.click({ click: 1, batchId: 'b1', seq: 1 });
    await withId.getStatus();
    expect(seen.map((i) => (i.headers as Record<string, string>)['x-device-id'])).toEqual(['AAAAAAAAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAAAA']);
    await createFetchTransport({ apiBase: '/api', initData: 'x', fetch }).click({ click: 1, batchId: 'b2', seq: 2 });
    expect(Object.keys(seen[2]!.headers as object)).not.toContain('x-device-id');
  });
});
