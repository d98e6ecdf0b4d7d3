/**
 * Unsent taps on a Bot API 9.0 client, end to end (docs/mini-app.md "Device storage"): the built
 * mini-app with Telegram's real script in Chromium, against the real server process. Telegram's
 * native side of DeviceStorage is played through `TelegramWebviewProxy`, the bridge Telegram's
 * script posts to; the values live in this test, as the client keeps them on the device, so they
 * outlast each launch. Each launch is a fresh browser context: closing it closes the app and takes
 * its web storage with it, as some Telegram clients do between launches.
 */
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClickPayload } from '../../engine/wire/api-types.ts';
import { apiAs, dbKinds, launchFor, openStack, serverNow, testUser } from './harness.ts';
import { openForSuite } from '../suite-fixture.ts';

type Params = { req_id?: string; key?: unknown; value?: unknown };

/** Telegram's client answering the DeviceStorage events from `device`, in a later task, refusing keys Telegram refuses. */
const playDeviceStorage = async (context: BrowserContext, device: Map<string, string>): Promise<void> => {
  await context.exposeFunction('moneyTestDeviceStorage', (type: string, { req_id, key, value }: Params) => {
    if (type === 'web_app_device_storage_clear') return (device.clear(), ['device_storage_cleared', { req_id }]);
    if (typeof key !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(key)) return ['device_storage_failed', { req_id, error: 'KEY_INVALID' }];
    if (type === 'web_app_device_storage_get_key') return ['device_storage_key_received', { req_id, value: device.get(key) ?? null }];
    if (value === null) device.delete(key);
    else if (typeof value === 'string') device.set(key, value);
    else return ['device_storage_failed', { req_id, error: 'VALUE_INVALID' }];
    return ['device_storage_key_saved', { req_id }];
  });
  // A script string, not a function: tsx names nested functions with a helper the page lacks.
  await context.addInitScript(`(() => {
    window.TelegramWebviewProxy = {
      postEvent(type, data) {
        if (!type.startsWith('web_app_device_storage_')) return;
        window.moneyTestDeviceStorage(type, JSON.parse(data)).then(([event, answer]) =>
          setTimeout(() => window.Telegram.WebView.receiveEvent(event, answer), 0));
      },
    };
  })()`);
};

interface Sent {
  body: Required<ClickPayload>;
  deviceId: string | undefined;
  status: number | null;
}

describe.each(dbKinds)('unsent taps on a 9.0 client across launches, real server on %s', (kind) => {
  const stack = openForSuite(() => openStack(kind));
  const player = testUser(kind === 'pglite' ? 71 : 81, { first_name: 'Dev', username: 'dev_storage' });
  const device = new Map<string, string>();
  const sent: Sent[] = [];
  const api = async () => apiAs(stack.server, player, await serverNow(stack.server));
  const contexts: BrowserContext[] = [];
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  });

  /** A launch on a 9.0 phone client; `clicks` answers /click (the network by default). */
  const launch = async (clicks?: Parameters<BrowserContext['route']>[1]): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await stack.browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 1, hasTouch: true });
    contexts.push(context);
    await playDeviceStorage(context, device);
    if (clicks) await context.route('**/money/api/v1/airdrop/click', clicks);
    const page = await context.newPage();
    page.on('pageerror', (e) => console.log('page exception:', e.message));
    const record = (request: Request, status: number | null) => {
      if (!request.url().endsWith('/click')) return;
      sent.push({ body: request.postDataJSON() as Required<ClickPayload>, deviceId: request.headers()['x-device-id'], status });
    };
    // A request that finished as its context closed has no response to read any more.
    page.on('requestfinished', (request) => void request.response().then((r) => record(request, r?.status() ?? null), () => undefined));
    page.on('requestfailed', (request) => record(request, null));
    const url = launchFor(stack.server, player, await serverNow(stack.server)).replace('tgWebAppVersion=8.0', 'tgWebAppVersion=9.0');
    await page.goto(url);
    return { context, page };
  };

  /** `times` taps on the coin, each a finger of its own (one tap per pointerdown). */
  const tap = async (page: Page, times: number) => {
    const coin = page.getByRole('button', { name: 'Tap the coin' });
    await coin.waitFor();
    for (let i = 0; i < times; i++) {
      const finger = { pointerId: 10 + i, isPrimary: true, pointerType: 'touch', clientX: 180, clientY: 400, bubbles: true };
      await coin.dispatchEvent('pointerdown', finger);
      await coin.dispatchEvent('pointerup', finger);
    }
  };

  /** Waits until the device holds no unsent taps, then compares the server's count with the batches it acknowledged. */
  const settled = async () => {
    await expect.poll(() => device.has(`money-taps-${player.id}`), { timeout: 20_000 }).toBe(false);
    await expect.poll(async () => (await (await api()).status()).totalClick - creditedTaps(), { timeout: 15_000 }).toBe(0);
  };

  /** Each batch the server acknowledged, once: what it must have credited. */
  const creditedTaps = () => {
    const batches = new Map(sent.filter((s) => s.status === 200).map((s) => [s.body.batchId, s.body.click]));
    return [...batches.values()].reduce((a, b) => a + b, 0);
  };

  it('sends the taps queued before the app was closed on the next launch, under their batch ids, credited once', async () => {
    expect((await (await api()).call('POST', '/claim-welcome-rw')).status).toBe(200);
    const first = await launch((route) => route.abort('internetdisconnected'));
    await tap(first.page, 5);
    await expect.poll(() => sent.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const queued = sent[0]!.body;
    // The batch is on the device before the app closes.
    await expect.poll(() => device.get(`money-taps-${player.id}`) ?? '').toContain(queued.batchId);
    const id = device.get('money-device-id');
    expect(id).toBeTruthy();
    await first.context.close();

    const before = sent.length;
    const second = await launch();
    await expect.poll(() => sent.slice(before).find((s) => s.status === 200)?.body, { timeout: 15_000 }).toEqual(queued);
    expect(sent.slice(before).every((s) => s.deviceId === id)).toBe(true);
    await settled();
    await second.context.close();
  });

  it('sends a batch again under its id when its answer was lost, and the server credits it once', async () => {
    let passed = 0;
    // The first /click reaches the server and its answer is lost; the network goes for the rest.
    const first = await launch(async (route) => {
      if (passed++ > 0) return route.abort('internetdisconnected');
      await route.fetch();
      await route.abort('connectionreset');
    });
    const before = sent.length;
    const totalBefore = (await (await api()).status()).totalClick;
    await tap(first.page, 3);
    await expect.poll(() => sent.length, { timeout: 15_000 }).toBeGreaterThan(before);
    const lost = sent[before]!.body;
    // The server took it: its answer was lost on the way back.
    await expect.poll(async () => (await (await api()).status()).totalClick, { timeout: 15_000 }).toBe(totalBefore + lost.click);
    await first.context.close();

    const reopened = sent.length;
    const second = await launch();
    await expect.poll(() => sent.slice(reopened).find((s) => s.status === 200)?.body, { timeout: 15_000 }).toEqual(lost);
    await settled();
    await second.context.close();
  });
});
