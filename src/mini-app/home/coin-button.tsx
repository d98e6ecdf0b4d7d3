import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { formatMoney } from '../../../engine/rules/format.ts';
import { $balance, $clickValue } from '../../engine-client/signals.ts';
import { haptic } from '../../telegram.ts';
import { useEngine } from '../engine-context.tsx';
import { art } from '../ui/art.tsx';
import { balanceAnnouncer } from './balance-announcer.ts';

/** How many floating "+N" labels are recycled; more than a thumb-storm can show at once. */
const floatPoolSize = 16;
const floatDurationMs = 800;

/**
 * The tappable coin (§2, §4 "Clicking"). One tap per `pointerdown` per pointerId, so five fingers
 * make five taps; `touch-action: manipulation` removes the double-tap zoom delay. Nothing here
 * sets React state per tap: the +N labels are a fixed pool of DOM nodes animated with the Web
 * Animations API (compositor-only transform/opacity), and the coin's squash is a CSS animation.
 * From a keyboard, Enter or Space is one tap per press (a held key repeats nothing).
 */
export const CoinButton = () => {
  const { _ } = useLingui();
  const engine = useEngine();
  const engineRef = useRef(engine);
  engineRef.current = engine;
  const buttonRef = useRef<HTMLButtonElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  const announceRef = useRef<HTMLSpanElement>(null);
  const balanceLabel = useRef('');
  balanceLabel.current = _('app.home.totalMoney');

  useEffect(() => {
    const button = buttonRef.current!;
    const layer = layerRef.current!;
    const pool = Array.from({ length: floatPoolSize }, () => {
      const node = document.createElement('span');
      node.className = 'coin__float';
      node.setAttribute('aria-hidden', 'true');
      layer.appendChild(node);
      return node;
    });
    let next = 0;
    const announcer = balanceAnnouncer(announceRef.current!, () => `${balanceLabel.current}: ${formatMoney($balance.peek())}`);
    const down = new Set<number>();
    // The coin's box, measured when it changes rather than per tap: reading it after the previous
    // tap's DOM writes would force a synchronous layout on every tap. Not read here either (that
    // would lay out the whole first screen inside React's commit): the observer's first call,
    // right after the first layout, measures it; a tap before that measures it once.
    let measured: DOMRect | null = null;
    const measure = () => {
      measured = button.getBoundingClientRect();
    };
    const box = (): DOMRect => measured ?? (measured = button.getBoundingClientRect());
    const resize = new ResizeObserver(measure);
    resize.observe(button);
    window.addEventListener('scroll', measure, { passive: true });

    // Engine.tap is the one energy gate (§5): at 0 energy it applies nothing and says the §8
    // message, which the shell shows as the toast. The feedback follows its answer.
    const tapAt = (x: number, y: number) =>
      void Promise.resolve(engineRef.current.tap(1)).then((applied) => (applied > 0 ? feedback(x, y) : haptic.error()));
    const onPointerDown = (event: PointerEvent) => {
      if (down.has(event.pointerId)) return;
      down.add(event.pointerId);
      tapAt(event.clientX - box().left, event.clientY - box().top);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      // Space would scroll and Enter click; a held key repeats, but a press is one tap.
      event.preventDefault();
      if (!event.repeat) tapAt(box().width / 2, box().height / 2);
    };
    const feedback = (x: number, y: number) => {
      haptic.tap();
      announcer.poke();
      const node = pool[next]!;
      next = (next + 1) % pool.length;
      const label = `+${$clickValue.peek()}`;
      if (node.textContent !== label) node.textContent = label;
      // Positioned by transform only (no left/top), so a tap never invalidates layout.
      const at = `translate(${x}px, ${y}px) translate(-50%, -50%)`;
      node.animate(
        [
          { transform: `${at} scale(0.8)`, opacity: 1 },
          { transform: `${at} translateY(-60px) scale(1.1)`, opacity: 1, offset: 0.55 },
          { transform: `${at} translateY(-110px) scale(1.15)`, opacity: 0 },
        ],
        { duration: floatDurationMs, easing: 'cubic-bezier(0.2, 0.8, 0.3, 1)' },
      );
      // Tilt toward the tapped side, then spring back.
      const { width, height } = box();
      const tiltX = ((y / height) - 0.5) * -14;
      const tiltY = ((x / width) - 0.5) * 14;
      button.animate(
        [
          { transform: `perspective(600px) rotateX(${tiltX}deg) rotateY(${tiltY}deg) scale(0.95)` },
          { transform: 'perspective(600px) rotateX(0) rotateY(0) scale(1)' },
        ],
        { duration: 180, easing: 'ease-out' },
      );
    };
    const onPointerUp = (event: PointerEvent) => down.delete(event.pointerId);
    button.addEventListener('pointerdown', onPointerDown);
    button.addEventListener('keydown', onKeyDown);
    button.addEventListener('pointerup', onPointerUp);
    button.addEventListener('pointercancel', onPointerUp);
    button.addEventListener('lostpointercapture', onPointerUp);
    return () => {
      button.removeEventListener('pointerdown', onPointerDown);
      button.removeEventListener('keydown', onKeyDown);
      button.removeEventListener('pointerup', onPointerUp);
      button.removeEventListener('pointercancel', onPointerUp);
      button.removeEventListener('lostpointercapture', onPointerUp);
      resize.disconnect();
      announcer.stop();
      window.removeEventListener('scroll', measure);
      for (const node of pool) node.remove();
    };
  }, []);

  return (
    <div className="coin">
      <button ref={buttonRef} className="coin__button" aria-label={_('app.home.tapCoin')} onContextMenu={(e) => e.preventDefault()}>
        <img className="coin__img" src={art('coin')} alt="" draggable={false} />
      </button>
      <div ref={layerRef} className="coin__floats" />
      <span ref={announceRef} className="sr-only" aria-live="polite" aria-atomic="true" data-testid="balance-announcer" />
    </div>
  );
};
