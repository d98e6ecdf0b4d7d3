import { describe, expect, it } from 'vitest';
import { createApiClient, FetchError, RequiredError, ResponseError } from '../../../src/mini-app/api/client.ts';
import { claimTask, getTasks, registerReferral, setPredictWallet } from '../../../src/mini-app/api/calls.ts';
import type { TaskType } from '../../../engine/wire/api-types.ts';

const client = (fetch: (url: string, init?: RequestInit) => Promise<Response>) =>
  createApiClient({ apiBase: '/money/api/v1/airdrop', initData: 'raw-init-data', fetch });

describe('api client (§8 client errors)', () => {
  it('raises "Response returned an error code" for a non-2xx status, keeping the server message', async () => {
    const api = client(async () => new Response(JSON.stringify({ error: 'Bad', message: 'Not enough MONEY' }), { status: 400 }));
    const error = await api.request('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseError);
    expect((error as ResponseError).message).toBe('Response returned an error code');
    expect((error as ResponseError).serverMessage).toBe('Not enough MONEY');
  });

  it('raises the fetch error for a network failure', async () => {
    const api = client(async () => Promise.reject(new TypeError('Failed to fetch')));
    const error = await api.request('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as Error).message).toBe('The request failed and the interceptors did not return an alternative response');
  });

  it('treats 200–299 as success, and text bodies as text', async () => {
    const api = client(async () => new Response('ok-token', { status: 201 }));
    expect(await api.request('/start-watch-ads')).toBe('ok-token');
  });

  it('raises a required-parameter error naming the missing field, before any request', async () => {
    let calls = 0;
    const api = client(async () => {
      calls += 1;
      return new Response('{}');
    });
    const cases: [() => Promise<unknown>, string][] = [
      [() => getTasks(api, undefined as unknown as TaskType), 'type'],
      [() => registerReferral(api, undefined as unknown as string), 'refcode'],
      [() => setPredictWallet(api, undefined as unknown as number), 'days'],
      [() => claimTask(api, undefined as unknown as number, { taskId: 1 }), 'task_id'],
    ];
    for (const [call, field] of cases) {
      const error = await Promise.resolve().then(call).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequiredError);
      expect((error as RequiredError).field).toBe(field);
      expect((error as Error).message).toContain(field);
    }
    expect(calls).toBe(0);
  });

  it('sends the raw init data as Authorization and the query and body as given', async () => {
    const seen: { url: string; init?: RequestInit }[] = [];
    const api = client(async (url, init) => {
      seen.push({ url, init });
      return new Response('{}');
    });
    await claimTask(api, 7, { taskId: 7, captchaToken: 'tok' });
    expect(seen[0]!.url).toBe('/money/api/v1/airdrop/claim-task?task_id=7');
    expect((seen[0]!.init!.headers as Record<string, string>).Authorization).toBe('raw-init-data');
    expect(JSON.parse(seen[0]!.init!.body as string)).toEqual({ taskId: 7, captchaToken: 'tok' });
  });
});
