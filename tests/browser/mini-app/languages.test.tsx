import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import appFa from '../../../engine/rules/i18n/catalogs/app/fa.json';
import appId from '../../../engine/rules/i18n/catalogs/app/id.json';
import appRu from '../../../engine/rules/i18n/catalogs/app/ru.json';
import { activateLocale } from '../../../src/i18n/i18n.ts';
import { startLocaleOf } from '../../../src/mini-app/locale.ts';
import { refusalMessage } from '../../../engine/wire/refusals.ts';
import { demoStatus, demoTasks, withTask, type FakeRefusal } from './fake-api.ts';
import { button, cleanup, click, find, findText, findToast, mountApp, pointer } from './harness.tsx';

/** The mini-app in the player's language (docs/i18n.md "The mini-app"). */
afterEach(async () => {
  await cleanup();
  await activateLocale('en', ['app']);
});

const nav = () => document.querySelector('nav.nav')?.textContent ?? '';
const navOf = (c: Record<string, string>) => ['home', 'earn', 'boost', 'invite', 'wallet'].map((k) => c[`app.nav.${k}`]).join('');

describe('languages', () => {
  it('starts in the language the server remembers, else Telegram\'s, else English', () => {
    expect(startLocaleOf('fa', 'ru')).toBe('fa');
    expect(startLocaleOf(null, 'ru')).toBe('ru');
    expect(startLocaleOf(undefined, 'pt-br')).toBe('pt-BR');
    expect(startLocaleOf('klingon', 'uk')).toBe('uk');
    expect(startLocaleOf(null, 'de')).toBe('en');
    expect(startLocaleOf(null, undefined)).toBe('en');
  });

  it('renders in Russian when the player chose Russian, §9 amounts and §8 toasts included', async () => {
    await mountApp('/', { status: demoStatus({ language: 'ru', availableEnergy: 0 }) });
    await vi.waitFor(() => expect(nav()).toBe(navOf(appRu)));
    expect(document.documentElement.lang).toBe('ru');
    expect(document.documentElement.dir).toBe('ltr');
    await findText(appRu['app.home.perTap']);
    // §9's money notation is the same in every language.
    expect((await find('[data-testid="balance"]')).textContent).toBe('18,250.50');
    expect((await find('[data-testid="energy"]')).textContent).toBe('0 / 1000');
    // button() waits for the screen's effects, which attach the coin's pointer listeners.
    await pointer(await button(appRu['app.home.tapCoin']), 'pointerdown', 1);
    await findToast(appRu['app.msg.noEnergy']);
  });

  it("shows a task's title in the player's language, and the English one where it has none", async () => {
    // Tasks 1 and 2 are Social tasks; 1 has a Persian title set in the console, 2 only a Spanish one.
    const tasks = withTask(withTask(demoTasks(), 1, { titles: { fa: 'ما را در X دنبال کنید' } }), 2, { titles: { es: 'Únete al canal' } });
    await mountApp('/earn', { status: demoStatus({ language: 'fa' }), tasks });
    await vi.waitFor(() => expect(nav()).toBe(navOf(appFa)));
    expect((await find('[data-testid="task-1"] .row__title')).textContent).toBe('ما را در X دنبال کنید');
    expect((await find('[data-testid="task-2"] .row__title')).textContent).toBe(tasks.find((t) => t.id === 2)!.title);
  });

  it('renders Persian right to left: the page, the navigation, the ring and the popups mirror; numbers do not', async () => {
    await mountApp('/', { status: demoStatus({ language: 'fa' }) });
    await vi.waitFor(() => expect(nav()).toBe(navOf(appFa)));
    expect(document.documentElement.lang).toBe('fa');
    expect(document.documentElement.dir).toBe('rtl');
    expect((await find('[data-testid="balance"]')).textContent).toBe('18,250.50');
    // The first tab (home) sits at the right edge, the last (wallet) at the left.
    const links = [...document.querySelectorAll<HTMLElement>('nav.nav a')];
    expect(links[0]!.getBoundingClientRect().left).toBeGreaterThan(links[4]!.getBoundingClientRect().left);
    // The energy ring starts at 12 o'clock (3 o'clock turned by -90°) and goes counter-clockwise
    // (6 o'clock lands on 9 o'clock): turned, then mirrored. Left to right it lands on 3 o'clock.
    const ring = new DOMMatrix(getComputedStyle(document.querySelector('.home__ring')!).transform);
    expect(ring.transformPoint(new DOMPoint(1, 0))).toMatchObject({ x: expect.closeTo(0), y: expect.closeTo(-1) });
    expect(ring.transformPoint(new DOMPoint(0, 1))).toMatchObject({ x: expect.closeTo(-1), y: expect.closeTo(0) });
    // The popup's close button is at the inline end: the left in Persian.
    await click(await button(appFa['app.home.openProfile']));
    const dialog = await find('[role="dialog"]');
    const close = dialog.querySelector<HTMLElement>('.popup__close')!.getBoundingClientRect();
    expect(close.left).toBeLessThan(dialog.getBoundingClientRect().left + dialog.getBoundingClientRect().width / 2);
    expect(dialog.textContent).toContain(appFa['app.title.profitPro']);
  });

  it('switches at once from the profile card and saves the choice on the server', async () => {
    const { state } = await mountApp('/');
    await findText('Per tap');
    await click(await button('Open profile'));
    const select = await find<HTMLSelectElement>('.profile__language select');
    expect(select.value).toBe('en');
    await act(async () => {
      select.value = 'id';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await vi.waitFor(() => expect(nav()).toBe(navOf(appId)));
    await findText(appId['app.home.perTap']);
    expect(document.documentElement.lang).toBe('id');
    await vi.waitFor(() => expect(state.calls.filter((c) => c.path === '/language').map((c) => c.body)).toEqual([{ language: 'id' }]));
    expect(state.status.language).toBe('id');
    expect((await find<HTMLSelectElement>('.profile__language select')).value).toBe('id');
  });

  it('switches back and says so when the server refuses to save the choice', async () => {
    const { state } = await mountApp('/', { failures: { '/language': 500 } });
    await findText('Per tap');
    await click(await button('Open profile'));
    const select = await find<HTMLSelectElement>('.profile__language select');
    await act(async () => {
      select.value = 'ru';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await findToast('Something went wrong, please try again later!');
    expect(nav()).toBe('HomeEarnBoostInviteWallet');
    expect(document.documentElement.lang).toBe('en');
    expect(state.status.language).toBeUndefined();
  });

  it("shows a server refusal by its code in the player's language, the field it names filled in", async () => {
    const refuseUpgrade = async (language: string, catalog: Record<string, string>, refusal: FakeRefusal) => {
      const { state } = await mountApp('/boost', { status: demoStatus({ language }) });
      state.failures['/update-level'] = refusal;
      await click(await find<HTMLButtonElement>('button.boost__row', catalog['app.boost.1.title']!));
      await click((await find('[role="dialog"]')).querySelector<HTMLButtonElement>('.btn--block')!);
    };
    await refuseUpgrade('ru', appRu, { status: 400, code: 'upgradeUnaffordable', field: 'levelKey' });
    await findToast(appRu['app.refusal.upgradeUnaffordable']!);
    expect(appRu['app.refusal.upgradeUnaffordable']).not.toBe(refusalMessage('upgradeUnaffordable'));

    await refuseUpgrade('fa', appFa, { status: 400, code: 'unknownParameter', field: 'levelKey' });
    await findToast(appFa['app.refusal.unknownParameter']!.replace('{field}', 'levelKey'));

    // A code whose text is the frozen notice reads as that notice.
    await refuseUpgrade('ru', appRu, { status: 423, code: 'frozen' });
    await findToast(appRu['app.frozen.message']!);
  });
});
