import { art, productName } from './art-path.ts';

const bootId = 'boot-screen';

/**
 * The mini-app's first paint, before any of its code has loaded (on a cheap phone that is seconds
 * of fetching and parsing): the coin, where and as large as the boot screen and home draw it
 * (shell/boot-screen.tsx, home's 276 px coin), breathing. It covers the page until the first
 * screen (onboarding or a page) is on it, then `removeBootScreen()` takes it away, so the first
 * paint is the page's largest and nothing moves under it.
 */
export const paintBootScreen = (doc: Document = document): void => {
  const coin = doc.createElement('img');
  coin.src = art('coin');
  coin.alt = productName;
  coin.style.cssText = 'width:276px;height:276px;max-width:74vw;max-height:74vw';
  const screen = doc.createElement('div');
  screen.id = bootId;
  screen.setAttribute('aria-busy', 'true');
  // Opaque (the page's colour once base.css is in): the boot screen React draws under it stays hidden.
  screen.style.cssText = 'position:fixed;inset:0;z-index:60;display:grid;place-items:center;pointer-events:none;background:var(--bg, Canvas)';
  screen.append(coin);
  // It breathes only once it has been painted whole: its first paint, at full size, is the page's
  // largest (LCP), so home's coin of the same size later is not a larger one.
  const win = doc.defaultView;
  const breathe = () => coin.animate?.([{ transform: 'scale(1)' }, { transform: 'scale(0.92)' }, { transform: 'scale(1)' }], { duration: 1_200, iterations: Infinity, easing: 'ease-in-out' });
  coin.addEventListener('load', () => win?.requestAnimationFrame(() => win.requestAnimationFrame(breathe)), { once: true });
  doc.body.append(screen);
};

/** True while the early coin covers the page (the mini-app's boot screen then draws no coin of its own). */
export const bootScreenShown = (doc: Document = document): boolean => doc.getElementById(bootId) !== null;

/** The first screen is on the page: the early coin goes. */
export const removeBootScreen = (doc: Document = document): void => doc.getElementById(bootId)?.remove();
