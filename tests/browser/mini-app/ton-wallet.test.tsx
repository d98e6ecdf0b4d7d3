import { afterEach, describe, expect, it, vi } from 'vitest';
import appUk from '../../../engine/rules/i18n/catalogs/app/uk.json';
import { demoStatus } from './fake-api.ts';
import { installFakeClient } from './fake-telegram-client.ts';
import { button, cleanup, click, find, findText, findToast, mountApp } from './harness.tsx';

afterEach(cleanup);

const linked = {
  address: `0:${'7a'.repeat(32)}`,
  friendlyAddress: 'UQB6enp6enp6enp6enp6enp6enp6enp6enp6enp6enp6eqQs',
  allocation: null,
};

describe('the TON wallet card under the Wallet teaser', () => {
  it('offers to link a wallet, below the forecast teaser', async () => {
    await mountApp('/wallet');
    await findText('Wallet is coming in');
    expect((await button('Link TON wallet')).disabled).toBe(false);
  });

  it('shows the linked wallet, and unlinks it', async () => {
    const { state } = await mountApp('/wallet', { wallet: linked });
    expect((await find('[data-testid="linked-address"]')).textContent).toBe('UQB6en…p6eqQs');
    await click(await button('Unlink wallet'));
    await findText('Link TON wallet');
    expect(state.calls.some((c) => c.method === 'POST' && c.path === '/wallet/unlink')).toBe(true);
  });

  it("says why the server refused, by the refusal's code, in the player's language", async () => {
    const { state } = await mountApp('/wallet', { wallet: linked, status: demoStatus({ language: 'uk' }) });
    state.failures['/wallet/unlink'] = { status: 423, code: 'frozen' };
    await click(await button(appUk['app.wallet.unlink']));
    await findToast(appUk['app.frozen.message']);
    state.failures['/wallet/unlink'] = { status: 409, code: 'walletLinkedElsewhere', field: 'address' };
    await click(await button(appUk['app.wallet.unlink']));
    await findToast(appUk['app.refusal.walletLinkedElsewhere']);
  });

  it('shows "your allocation: N MONEY" after the snapshot', async () => {
    await mountApp('/wallet', { wallet: { ...linked, allocation: { round: 1, amount: '7789.51', startFrom: 1, expireAt: 2 } } });
    expect((await find('[data-testid="allocation"]')).textContent).toBe('your allocation: 7,789.51 MONEY');
  });

  /** A bound on waiting for TON Connect's animations, not a speed asserted. */
  const waitLong = { timeout: 10_000 };

  it("opens TON Connect's modal in Telegram's scheme: dark over the dark app, light over the light one", async () => {
    /** The relative luminance (0 black … 1 white) of the modal's panel as drawn. */
    const panelLuminance = async (scheme: 'light' | 'dark') => {
      const client = installFakeClient({ version: '8.0', platform: 'android', colorScheme: scheme });
      try {
        await mountApp('/wallet');
        await click(await button('Link TON wallet'));
        const panel = await vi.waitFor(() => {
          const el = document.querySelector('#tc-widget-root [data-tc-modal] > div');
          if (!el) throw new Error('TON Connect has not opened its modal');
          return el;
        }, waitLong);
        const [r, g, b] = getComputedStyle(panel).backgroundColor.match(/\d+/g)!.map(Number);
        // Closed again (its close button), so the next open draws a new one.
        await click(panel.querySelector('button[data-tc-icon-button]')!);
        // Its exit animation runs first: on a busy machine longer than vi.waitFor's default second.
        await vi.waitFor(() => expect(document.querySelector('#tc-widget-root [data-tc-modal]')).toBeNull(), waitLong);
        return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
      } finally {
        client.restore();
      }
    };
    expect(await panelLuminance('dark')).toBeLessThan(0.3);
    expect(await panelLuminance('light')).toBeGreaterThan(0.7);
  });
});
