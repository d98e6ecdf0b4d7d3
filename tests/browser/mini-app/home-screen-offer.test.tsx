import { afterEach, describe, expect, it, vi } from 'vitest';
import { daysPlayedKey, homeScreenAnswerKey, shouldOfferHomeScreen } from '../../../src/mini-app/home/home-screen-offer.tsx';
import { button, cleanup, click, mountApp } from './harness.tsx';
import { installFakeClient, type FakeClient, type FakeClientOptions } from './fake-telegram-client.ts';

const day = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * day).toISOString().slice(0, 10);

let client: FakeClient | null = null;
const useClient = (options: Partial<FakeClientOptions> = {}) => {
  client = installFakeClient({ version: '8.0', platform: 'ios', ...options });
  return client;
};
afterEach(async () => {
  client?.restore();
  client = null;
  await cleanup();
  localStorage.clear();
});

const offer = () => document.querySelector('[role="dialog"][aria-label="Keep MONEY one tap away"]');

describe('the home-screen shortcut', () => {
  it('is offered on the second day back, and after a yes is never offered again', async () => {
    const c = useClient();
    c.cloud.set(daysPlayedKey, JSON.stringify([daysAgo(2), daysAgo(1)]));
    await mountApp('/');
    await click(await button('Add to Home Screen'));
    expect(c.calls).toContain('checkHomeScreenStatus');
    expect(c.calls).toContain('addToHomeScreen');
    await vi.waitFor(() => expect(c.cloud.get(homeScreenAnswerKey)).toBe('yes'));
    expect(offer()).toBeNull();
    expect(JSON.parse(c.cloud.get(daysPlayedKey)!)).toEqual([daysAgo(2), daysAgo(1), today]);

    const checks = c.calls.filter((name) => name === 'checkHomeScreenStatus').length;
    expect(await shouldOfferHomeScreen(Date.now() + 3 * day)).toBe(false);
    expect(c.calls.filter((name) => name === 'checkHomeScreenStatus')).toHaveLength(checks);
  });

  it('after a no (or closing it) is never offered again', async () => {
    const c = useClient();
    c.cloud.set(daysPlayedKey, JSON.stringify([daysAgo(2), daysAgo(1)]));
    await mountApp('/');
    await click(await button('No, thanks'));
    await vi.waitFor(() => expect(c.cloud.get(homeScreenAnswerKey)).toBe('no'));
    expect(c.calls).not.toContain('addToHomeScreen');
    expect(await shouldOfferHomeScreen(Date.now() + day)).toBe(false);
  });

  it('is not offered on the first day back, nor twice on the same day', async () => {
    const c = useClient();
    expect(await shouldOfferHomeScreen(Date.now() - day)).toBe(false);
    expect(await shouldOfferHomeScreen(Date.now() - day)).toBe(false);
    expect(await shouldOfferHomeScreen()).toBe(false);
    expect(JSON.parse(c.cloud.get(daysPlayedKey)!)).toEqual([daysAgo(1), today]);
    expect(c.calls).not.toContain('checkHomeScreenStatus');
    expect(await shouldOfferHomeScreen(Date.now() + day)).toBe(true);
  });

  it('asks the client first: already added means no offer, and the answer is kept', async () => {
    const c = useClient({ homeScreen: 'added' });
    c.cloud.set(daysPlayedKey, JSON.stringify([daysAgo(2), daysAgo(1)]));
    expect(await shouldOfferHomeScreen()).toBe(false);
    expect(c.cloud.get(homeScreenAnswerKey)).toBe('yes');
    const unsupported = useClient({ homeScreen: 'unsupported' });
    unsupported.cloud.set(daysPlayedKey, JSON.stringify([daysAgo(2), daysAgo(1)]));
    expect(await shouldOfferHomeScreen()).toBe(false);
  });

  it('keeps its days on the device with DeviceStorage (9.0), and in localStorage on a client without storage', async () => {
    const modern = useClient({ version: '9.1' });
    modern.device.set(daysPlayedKey, JSON.stringify([daysAgo(2), daysAgo(1)]));
    expect(await shouldOfferHomeScreen()).toBe(true);
    expect(modern.cloud.size).toBe(0);
    modern.restore();

    const old = useClient({ version: '6.0', platform: 'android' });
    localStorage.setItem(daysPlayedKey, JSON.stringify([daysAgo(2), daysAgo(1)]));
    expect(await shouldOfferHomeScreen()).toBe(false);
    expect(JSON.parse(localStorage.getItem(daysPlayedKey)!)).toEqual([daysAgo(2), daysAgo(1), today]);
    expect(old.unsupported).toEqual([]);
  });
});
