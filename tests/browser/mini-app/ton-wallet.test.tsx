import { afterEach, describe, expect, it } from 'vitest';
import appUk from '../../../engine/i18n/catalogs/app/uk.json';
import { demoStatus } from './fake-api.ts';
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
});
