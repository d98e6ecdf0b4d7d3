import { afterEach, describe, expect, it, vi } from 'vitest';
import appEn from '../../../engine/rules/i18n/catalogs/app/en.json';
import appFa from '../../../engine/rules/i18n/catalogs/app/fa.json';
import { demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, mountApp, recordOpenedLinks } from './harness.tsx';

afterEach(cleanup);
const opened = recordOpenedLinks();

const notice = () => document.querySelector<HTMLElement>('[data-testid="airdrop-review"]');

describe('the airdrop review on the Wallet screen', () => {
  it('says nothing while the player is clear', async () => {
    await mountApp('/wallet');
    await find('.wallet__art');
    expect(notice()).toBeNull();
  });

  it('tells a player under review which kinds of reason apply and how to appeal, never a number', async () => {
    await mountApp('/wallet', { status: demoStatus({ airdropReview: { state: 'review', reasons: ['tapRhythm', 'tapAtCap', 'sharedDevice'] } }) });
    const box = await find('[data-testid="airdrop-review"]');
    expect(box.querySelector('h2')!.textContent).toBe(appEn['app.review.titleReview']);
    // Two tapping reasons are one kind: each kind once, in the catalog's words.
    expect([...box.querySelectorAll('li')].map((li) => li.textContent)).toEqual([appEn['app.review.kind.tapping'], appEn['app.review.kind.device']]);
    expect(box.textContent).toContain(appEn['app.review.bodyReview']);
    expect(box.textContent).not.toMatch(/\d/);
    await click(await button(appEn['app.review.appeal']));
    await vi.waitFor(() => expect(opened).toEqual(['https://t.me/money_community']));
  });

  it('names the group kind once for the group signals, beside the referrals kind', async () => {
    await mountApp('/wallet', { status: demoStatus({ airdropReview: { state: 'review', reasons: ['treeBurst', 'youngInvitees', 'twinSessions'] } }) });
    const box = await find('[data-testid="airdrop-review"]');
    expect([...box.querySelectorAll('li')].map((li) => li.textContent)).toEqual([appEn['app.review.kind.referrals'], appEn['app.review.kind.group']]);
    expect(box.textContent).not.toMatch(/\d/);
  });

  it('names no kind for a player an operator excluded on evidence of their own', async () => {
    await mountApp('/wallet', { status: demoStatus({ airdropReview: { state: 'excluded', reasons: [] } }) });
    const box = await find('[data-testid="airdrop-review"]');
    expect(box.querySelector('h2')!.textContent).toBe(appEn['app.review.titleExcluded']);
    expect(box.querySelector('ul')).toBeNull();
    expect(box.textContent).not.toContain(appEn['app.review.why']);
  });

  it('tells an excluded player in Persian, right to left', async () => {
    await mountApp('/wallet', { status: demoStatus({ language: 'fa', airdropReview: { state: 'excluded', reasons: ['referralFarmInvitee'] } }) });
    await vi.waitFor(() => expect(notice()?.querySelector('h2')?.textContent).toBe(appFa['app.review.titleExcluded']));
    const box = notice()!;
    expect([...box.querySelectorAll('li')].map((li) => li.textContent)).toEqual([appFa['app.review.kind.referrals']]);
    expect(box.textContent).toContain(appFa['app.review.bodyExcluded']);
    expect(document.documentElement.dir).toBe('rtl');
    expect(getComputedStyle(box).direction).toBe('rtl');
    // The accent border is on the inline start: the right in Persian.
    expect(getComputedStyle(box).borderRightWidth).toBe('4px');
  });
});
