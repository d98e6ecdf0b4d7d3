import { describe, expect, it } from 'vitest';
import { MemoryTapStore } from './adapters/memory-tap-store.ts';
import { createFetchTransport } from './adapters/fetch-transport.ts';
import type { ClickPayload } from '../wire/api-types.ts';
import { economy } from '../rules/economy.ts';
import { Engine } from './engine.ts';
import { refusalMessage } from '../wire/refusals.ts';
import { counterIds, InMemoryTransport } from './testing/in-memory-transport.ts';
import { ManualTime } from './testing/manual-time.ts';

/**
 * A server that sheds load answers 503 `overloaded` with Retry-After (docs/faults.md "Overload").
 * The engine, over its real fetch transport, treats it as the database away: it goes offline (the
 * one "Reconnecting…" line), says nothing else, keeps the taps and resends them with their batchIds.
 */
const overloadedServer = async () => {
  const time = new ManualTime();
  const server = new InMemoryTransport(time, { scheduler: time });
  let overloaded = false;
  const shed = () =>
    new Response(JSON.stringify({ error: 'Service Unavailable', message: refusalMessage('overloaded'), code: 'overloaded' }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'retry-after': '1' },
    });
  const answer = async (method: string, path: string, body: string | undefined): Promise<unknown> => {
    if (method === 'GET' && path === '') return server.getStatus();
    if (path === '/click') return server.click(JSON.parse(body!) as Required<ClickPayload>);
    if (path === '/claim') return server.claim();
    throw new Error(`unexpected ${method} ${path}`);
  };
  const fetch = (async (url: string, init: RequestInit) => {
    if (overloaded) return shed();
    const body = await answer(init.method ?? 'GET', url.slice('/api'.length), init.body as string | undefined);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const engine = new Engine({
    clock: time,
    scheduler: time,
    transport: createFetchTransport({ apiBase: '/api', initData: 'user=1&hash=x', fetch }),
    store: new MemoryTapStore(),
    newId: counterIds(),
  });
  await engine.start();
  return { time, server, engine, snap: () => engine.getSnapshot(), setOverloaded: (on: boolean) => void (overloaded = on) };
};

describe('engine: a server shedding load', () => {
  it('shows Reconnecting (offline) with no message, keeps the taps and resends them once the server answers', async () => {
    const { time, server, engine, snap, setOverloaded } = await overloadedServer();
    expect(snap()).toMatchObject({ ready: true, online: true });
    setOverloaded(true);
    for (let i = 0; i < 5; i++) engine.tap(1);
    await time.advance(economy.clickBatchDebounceMs);
    expect(snap()).toMatchObject({ online: false, totalEarn: '5', pendingTaps: 5, message: null });
    // Still shedding at the first retries: nothing is dropped, nothing said.
    await time.advance(economy.retryBaseMs * 3);
    engine.tap(2);
    await time.advance(economy.clickBatchDebounceMs);
    expect(snap()).toMatchObject({ online: false, totalEarn: '7', pendingTaps: 7, message: null });
    expect(server.totalClick).toBe(0);

    setOverloaded(false);
    await time.advance(economy.retryMaxMs);
    expect(server.totalClick).toBe(7);
    expect(snap()).toMatchObject({ online: true, totalEarn: '7', pendingTaps: 0, message: null });
    const batchIds = server.calls.filter((c) => c.kind === 'click').map((c) => (c.body as { batchId: string }).batchId);
    expect(new Set(batchIds).size).toBe(batchIds.length);
  });
});
