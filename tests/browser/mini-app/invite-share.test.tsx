import { afterEach, describe, expect, it, vi } from 'vitest';
import { button, cleanup, click, mountApp, recordOpenedLinks, toasts } from './harness.tsx';
import { installFakeClient, type FakeClient, type FakeClientOptions } from './fake-telegram-client.ts';

let client: FakeClient | null = null;
const useClient = (options: Partial<FakeClientOptions> = {}) => {
  client = installFakeClient({ version: '8.0', platform: 'android', initData: 'query_id=q&user=%7B%22id%22%3A5001%7D&auth_date=1&hash=abc', ...options });
  return client;
};
afterEach(async () => {
  client?.restore();
  client = null;
  await cleanup();
});

const inviteButton = async () => {
  const b = await button('Invite a friend');
  await vi.waitFor(() => expect(b.disabled).toBe(false));
  return b;
};
const prepares = (calls: { method: string; path: string }[]) => calls.filter((c) => c.method === 'POST' && c.path === '/invite/prepared');

describe('the Invite button', () => {
  const opened = recordOpenedLinks();

  it('shares the invite the bot prepared (shareMessage), and opens no link', async () => {
    const c = useClient();
    const { state } = await mountApp('/invite');
    await vi.waitFor(() => expect(prepares(state.calls)).toHaveLength(1));
    await click(await inviteButton());
    await vi.waitFor(() => expect(c.sharedMessages).toEqual(['prep-Ab3dE9']));
    expect(opened).toEqual([]);
    expect(c.unsupported).toEqual([]);
  });

  it('opens nothing else when the player closes the share dialog', async () => {
    const c = useClient({ shareSent: false, shareError: 'USER_DECLINED' });
    const { state } = await mountApp('/invite');
    await vi.waitFor(() => expect(prepares(state.calls)).toHaveLength(1));
    await click(await inviteButton());
    await vi.waitFor(() => expect(c.sharedMessages).toHaveLength(1));
    await new Promise((r) => queueMicrotask(() => r(undefined)));
    expect(opened).toEqual([]);
  });

  it('shares the t.me link when the client could not share the message', async () => {
    const c = useClient({ shareSent: false, shareError: 'MESSAGE_EXPIRED' });
    const { state } = await mountApp('/invite');
    await vi.waitFor(() => expect(prepares(state.calls)).toHaveLength(1));
    await click(await inviteButton());
    await vi.waitFor(() => expect(c.calls).toContain('openTelegramLink'));
    expect(c.sharedMessages).toHaveLength(1);
  });

  it('shares the t.me link, with no error shown, when the bot could not prepare the message', async () => {
    const c = useClient();
    const { state } = await mountApp('/invite', { failures: { '/invite/prepared': { status: 503, code: 'outsideServiceUnavailable' } } });
    await vi.waitFor(() => expect(prepares(state.calls)).toHaveLength(1));
    await click(await inviteButton());
    expect(c.calls).toContain('openTelegramLink');
    expect(c.sharedMessages).toEqual([]);
    expect(toasts()).toEqual([]);
  });

  it('on a client before 8.0, asks for no prepared message and shares the t.me link', async () => {
    const c = useClient({ version: '7.10' });
    const { state } = await mountApp('/invite');
    await click(await inviteButton());
    expect(c.calls).toContain('openTelegramLink');
    expect(prepares(state.calls)).toEqual([]);
    expect(c.unsupported).toEqual([]);
  });
});
