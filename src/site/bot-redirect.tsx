import { Trans } from '@lingui/react';
import { createContext, useContext, useEffect } from 'react';
import { botLink } from '../config.ts';

/**
 * §1/§2: without init data the mini-app's own paths are useless, so a visitor who lands on one is
 * sent to the bot. `replace` keeps the dead URL out of the history (Back returns where they came from).
 */
export const miniAppPaths = ['/earn', '/boost', '/invite', '/leaderboard', '/wallet', '/comingsoon'] as const;

/** True for a path that only exists inside the mini-app: its routes and anything under /app. */
export const isMiniAppPath = (pathname: string): boolean => {
  const path = pathname.replace(/\/+$/, '') || '/';
  return (miniAppPaths as readonly string[]).includes(path) || path === '/app' || path.startsWith('/app/');
};

/** How the page leaves for the bot; tests provide their own (window.location cannot be stubbed). */
export const LeaveContext = createContext<(url: string) => void>((url) => window.location.replace(url));

/** Leaves for the bot at once (before React renders anything). */
export const leaveForBot = (): void => window.location.replace(botLink());

/** Route element for the mini-app-only paths. */
export const BotRedirect = () => {
  const leave = useContext(LeaveContext);
  useEffect(() => leave(botLink()), [leave]);
  return (
    <main id="main" className="page narrow">
      <p>
        <Trans id="site.redirect.text" components={{ 0: <a href={botLink()} /> }} />
      </p>
    </main>
  );
};
