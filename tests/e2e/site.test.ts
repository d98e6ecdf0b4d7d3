import { describe, expect, it } from 'vitest';
import type { PublicStats } from '../../engine/wire/api-types.ts';
import { apiPrefix } from '../../engine/wire/api-types.ts';
import { formatCompact } from '../../engine/rules/format.ts';
import { advanceClock, apiAs, dbKinds, serverNow, testUser, openStack } from './harness.ts';
import { openForSuite } from '../suite-fixture.ts';

// Config reaches the browser only through the config block the server writes: these must show up as links.
const configEnv = {
  TWITTER_URL: 'https://x.com/e2e_money',
  CHANNEL_URL: 'https://t.me/e2e_money_channel',
  COMMUNITY_URL: 'https://t.me/e2e_money_group',
  BOT_USERNAME: 'E2eMoneyBot',
  ENABLE_TEST_CRON: '1',
};

describe.each(dbKinds)('public site, real server on %s', (kind) => {
  const stack = openForSuite(() => openStack(kind, configEnv));

  it('a visitor sees the landing page with live stats, config links and no CSP violation', async () => {
    // Some activity first, so the tiles have something other than zero to show.
    const now = await serverNow(stack.server);
    for (const n of [1, 2]) {
      const player = apiAs(stack.server, testUser(100 + n), now);
      await player.status();
      const clicked = await player.call('POST', '/click', { click: 7, batchId: `site-${n}`, seq: 1 });
      expect(clicked.status).toBe(200);
    }
    // The stats are the stats job's (docs/scaling.md): run it now, and let the 5 s in-memory copy expire.
    expect((await fetch(`${stack.server.base}${apiPrefix}/public/test-cron`)).status).toBe(200);
    await advanceClock(stack.server, 6_000);
    const stats = (await (await fetch(`${stack.server.base}${apiPrefix}/public/stats`)).json()) as PublicStats;
    expect(stats.totalPaticipant).toBeGreaterThanOrEqual(2);
    expect(stats.totalClick).toBeGreaterThan(0);

    const page = await stack.browser.newPage({ viewport: { width: 375, height: 812 } });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    const loaded: string[] = [];
    page.on('request', (r) => loaded.push(r.url()));
    const res = await page.goto(`${stack.server.base}/`);
    expect(res?.status()).toBe(200);
    await page.getByText('Telegram Native').first().waitFor();
    await page.getByText('Exclusively on TON').first().waitFor();

    const tile = (key: string) => page.locator(`[data-stat="${key}"] .stat-value`);
    await tile('totalClick').waitFor();
    expect(await tile('totalClick').textContent()).toBe(`+${formatCompact(stats.totalClick)}`);
    expect(await tile('totalPaticipant').textContent()).toBe(`+${formatCompact(stats.totalPaticipant)}`);
    expect(await tile('totalEarn').textContent()).toBe(`+${formatCompact(stats.totalEarn)}`);

    await expect(page.locator(`header a[href="${configEnv.TWITTER_URL}"]`).count()).resolves.toBeGreaterThan(0);
    await expect(page.locator(`a[href="${configEnv.COMMUNITY_URL}"]`).count()).resolves.toBeGreaterThan(0);
    await expect(page.locator(`a[href^="https://t.me/${configEnv.BOT_USERNAME}"]`).count()).resolves.toBeGreaterThan(0);
    await page.getByText('The Next Generation Of Social Money').waitFor();
    await page.getByText('Join The $MONEY Community').waitFor();

    // The public site talks to nobody but us.
    expect(loaded.filter((u) => !u.startsWith(stack.server.base) && !u.startsWith('data:'))).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('the site and demo launch links printed at start work', async () => {
    const printed = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(stack.server.output())?.[1] ?? '';
    const page = await stack.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(printed('Site'));
    await page.getByText('Exclusively on TON').first().waitFor();
    await page.goto(printed('Demo launch'));
    await page.getByRole('button', { name: "Let's get rewarded" }).waitFor();
    await page.close();
  });

  it('answers the health check', async () => {
    const res = await fetch(`${stack.server.base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('serves the policy and the terms as their own routes', async () => {
    const page = await stack.browser.newPage();
    await page.goto(`${stack.server.base}/policy`);
    await page.getByRole('heading', { name: /Privacy Policy/i }).first().waitFor();
    await page.getByText(/30 days/).first().waitFor();
    await page.goto(`${stack.server.base}/terms`);
    await page.getByRole('heading', { name: /Terms of Use/i }).first().waitFor();
    await page.getByText(/Seychelles/).first().waitFor();
    await page.close();
  });
});
