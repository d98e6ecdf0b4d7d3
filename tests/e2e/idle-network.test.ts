/**
 * An idle mini-app screen goes quiet (docs/mini-app.md "Data"): against the real server, once
 * a screen has loaded, the page asks our server for nothing more than the documented timers send
 * (the 300 ms click batch only when there are taps, the 90 s claim, the 10 s auto-click of a
 * player who has it). A loop that polls (a retry without backoff, a refetch interval) would ask
 * many times in a few seconds; the bound here is a count of requests, not a time.
 */
import { describe, expect, it } from 'vitest';
import { apiAs, launchFor, openStack, testUser } from './harness.ts';
import { openForSuite } from '../suite-fixture.ts';

const screens = ['/', '/boost', '/earn', '/invite', '/leaderboard', '/wallet', '/comingsoon'];
/** How long an idle screen is watched, and the most requests a timer may send in that time. */
const watchMs = 5_000;
const mostRequests = 2;

describe('idle screens', () => {
  const stack = openForSuite(() => openStack('pglite'));

  it.each(['en'])(`ask the server at most ${mostRequests} times in ${watchMs / 1000} s once loaded (%s)`, async (lang) => {
    const user = testUser(71, { language_code: lang });
    const api = apiAs(stack.server, user, Date.now());
    await api.status();
    expect((await api.call('POST', '/claim-welcome-rw')).status).toBe(200);
    const seen: Record<string, string[]> = {};
    for (const path of screens) {
      const context = await stack.browser.newContext({ viewport: { width: 375, height: 812 } });
      try {
        const page = await context.newPage();
        const url = new URL(launchFor(stack.server, user, Date.now()));
        url.pathname = `/app${path}`;
        await page.goto(url.toString());
        await page.getByRole('navigation').first().waitFor();
        // Loaded: the screen's first requests have been answered (TON Connect's wallet logos come
        // from other hosts and are not counted).
        await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
        const requests: string[] = [];
        context.on('request', (r) => {
          if (r.url().startsWith(stack.server.base)) requests.push(`${r.method()} ${r.url().slice(stack.server.base.length)}`);
        });
        await page.waitForTimeout(watchMs);
        seen[path] = requests;
      } finally {
        await context.close();
      }
    }
    const busy = Object.fromEntries(Object.entries(seen).filter(([, r]) => r.length > mostRequests));
    expect(busy).toEqual({});
  }, 240_000);
});
