import { useLingui } from '@lingui/react';
import { Suspense, useEffect, type ComponentProps } from 'react';
import type { Toaster as SonnerToaster } from 'sonner';
import { economy } from '../../../engine/rules/economy.ts';
import { dirOf } from '../../../engine/rules/i18n/locales.ts';
import { retryingLazy } from '../../route-retry.tsx';
import { appLocale } from '../locale.ts';

/**
 * sonner is loaded after the first paint (it is not needed to tap), which keeps the initial JS
 * under budget. Messages wait for `toasterReady` so none is lost before the Toaster listens.
 */
let markReady: () => void = () => undefined;
export const toasterReady = new Promise<void>((resolve) => {
  markReady = resolve;
});

const LazyToaster = retryingLazy(async () => {
  const { Toaster } = await import('sonner');
  const Ready = (props: ComponentProps<typeof SonnerToaster>) => {
    // Runs after the Toaster's own effect (children first), so it is subscribed by now.
    useEffect(() => markReady(), []);
    return <Toaster {...props} />;
  };
  return { default: Ready };
});

/** §8: one message at a time, shown for 2 s, written in the reader's direction (docs/i18n.md). */
export const AppToaster = () => {
  useLingui();
  return (
    <Suspense fallback={null}>
      <LazyToaster
        position="top-center"
        // Below the notch and Telegram's buttons in full screen (src/telegram.ts insets).
        offset={{ top: 'calc(24px + var(--inset-top))' }}
        mobileOffset={{ top: 'calc(16px + var(--inset-top))' }}
        visibleToasts={1}
        duration={economy.toastDurationMs}
        richColors
        theme="system"
        dir={dirOf(appLocale())}
      />
    </Suspense>
  );
};
