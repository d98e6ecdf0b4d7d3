import { page } from 'vitest/browser';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { demoStatus } from './fake-api.ts';
import { button, cleanup, click, find, mountApp } from './harness.tsx';

afterEach(cleanup);
afterAll(() => page.viewport(375, 812));

/** Whether a one-line control's text stays on one line (no wrap, nothing cut). */
const oneLine = (el: HTMLElement) => {
  const style = getComputedStyle(el);
  const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.4;
  const inner = el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  return inner < line * 1.5 && el.scrollWidth <= el.clientWidth + 1;
};

describe('words that fit', () => {
  for (const width of [320, 375]) {
    it(`keeps each onboarding reward row's label apart from its amount at ${width} px`, async () => {
      await page.viewport(width, 812);
      localStorage.setItem('currentSection', '4');
      await mountApp('/', { status: demoStatus({ isClaimedWelcome: false, teleAge: 1669 }) });
      const rows = [...(await find('.onb__breakdown', undefined, 20_000)).children] as HTMLElement[];
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        const [label, amount] = [row.querySelector('span')!, row.querySelector('strong')!];
        const gap = amount.getBoundingClientRect().left - label.getBoundingClientRect().right;
        expect(gap, row.textContent ?? '').toBeGreaterThanOrEqual(8);
        expect(oneLine(amount)).toBe(true);
      }
    }, 60_000);

    it(`shows "Connect X" on one line in the profile sheet at ${width} px`, async () => {
      await page.viewport(width, 812);
      await mountApp('/', { status: demoStatus({ twUsername: null, twAge: 0 }) });
      await click(await button('Open profile', 20_000));
      const connect = await button('Connect X');
      expect(oneLine(connect)).toBe(true);
      expect(oneLine(await button('I connected'))).toBe(true);
    }, 60_000);
  }
});
