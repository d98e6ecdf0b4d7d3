import { Suspense, useDeferredValue, useEffect, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useLingui } from '@lingui/react';
import { removeBootScreen } from '../../boot-screen.ts';
import { retryingLazy } from '../../route-retry.tsx';
import { loadTelegramSdk } from '../../telegram.ts';
import { useStatus } from '../engine-context.tsx';
import { useStartLocale } from '../locale.ts';
import { BootScreen } from './boot-screen.tsx';
import { BottomNav } from './bottom-nav.tsx';
import { Reconnecting } from './reconnecting.tsx';
import { useEngineMessages, useStartParamReferral, useTelegramBackButton } from './shell-hooks.ts';

const Onboarding = retryingLazy(async () => ({ default: (await import('../onboarding/onboarding.tsx')).Onboarding }));

/** An operator froze this player: the server refuses taps, claims and purchases (docs/admin.md). */
const FrozenBanner = ({ frozen }: { frozen: boolean | undefined }) => {
  const { _ } = useLingui();
  return frozen === true ? <div className="frozen-banner" role="alert">{_('app.frozen.message')}</div> : null;
};

/**
 * Rendered with the first screen: the coin main.tsx painted before any code loaded goes
 * (src/boot-screen.ts), and Telegram's script loads now, off the first screen's path (src/telegram.ts).
 */
const FirstScreenShown = () => {
  useEffect(() => {
    removeBootScreen();
    void loadTelegramSdk();
  }, []);
  return null;
};

/**
 * The layout of every mini-app route: onboarding until the welcome reward is claimed (§4), then
 * the page and, only then, the bottom navigation (§2).
 */
export const Shell = () => {
  const status = useStatus();
  const location = useLocation();
  const navigate = useNavigate();
  useTelegramBackButton(location.pathname !== '/', () => navigate(-1));
  useEngineMessages();
  useStartParamReferral(status.data);
  // Decided when the status first arrives and kept until step 4's continue: claiming inside
  // step 4 must not yank the user out of onboarding before they press continue.
  const [onboarding, setOnboarding] = useState<boolean | null>(null);
  if (status.data && onboarding === null) setOnboarding(!status.data.isClaimedWelcome);

  // The player's chosen language is known with the status: screens wait for its catalog.
  const localeReady = useStartLocale(status.data, !status.isPending);

  // The first screen replaces the boot screen in a deferred render, which React does in slices:
  // on a cheap phone the whole page's first render never blocks the main thread in one piece.
  const ready = useDeferredValue(!status.isPending && localeReady);
  if (!ready) return <BootScreen />;
  // Without user data the intro (step 1) shows: its button says "Error occurred, please try
  // later" and reloads the data (§2), and the status decides the tree once it arrives.
  if (onboarding || !status.data) {
    return (
      <div className="app">
        <FrozenBanner frozen={status.data?.isFrozen} />
        <Suspense fallback={<BootScreen />}>
          <Onboarding
            onDone={() => {
              setOnboarding(false);
              navigate('/');
            }}
          />
          <FirstScreenShown />
        </Suspense>
      </div>
    );
  }
  const withNav = status.data.isClaimedWelcome;
  return (
    <div className="app">
      <Reconnecting />
      <FrozenBanner frozen={status.data.isFrozen} />
      <main className={withNav ? 'app__page' : 'app__page app__page--bare'}>
        <Suspense fallback={null}>
          <Outlet />
          <FirstScreenShown />
        </Suspense>
      </main>
      {withNav && <BottomNav />}
    </div>
  );
};
