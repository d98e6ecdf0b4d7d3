/**
 * Who is signed in. On load: the session cookie's session, else the init data Telegram put in the
 * URL hash when the bot's /admin button opened the console (then the hash is cleared), else the
 * sign-in page.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { AdminSession } from '../../engine/wire/admin-types.ts';
import { AdminApiError, get, post, setCsrfToken } from './api.ts';

interface SessionState {
  session: AdminSession | null;
  checking: boolean;
  error: string | undefined;
  signedIn(s: AdminSession): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export const useSession = (): SessionState => {
  const s = useContext(SessionContext);
  if (s === null) throw new Error('useSession outside SessionProvider');
  return s;
};

const initDataInHash = (): string | null => new URLSearchParams(window.location.hash.slice(1)).get('tgWebAppData');

export const SessionProvider = ({ children }: { children: ReactNode }) => {
  const [session, setSession] = useState<AdminSession | null>(null);
  const [checking, setChecking] = useState(true);
  const [error, setError] = useState<string>();
  const signedIn = (s: AdminSession) => {
    setCsrfToken(s.csrfToken);
    setSession(s);
    setError(undefined);
  };
  useEffect(() => {
    const start = async () => {
      try {
        signedIn(await get<AdminSession>('/session'));
      } catch (err) {
        const initData = initDataInHash();
        if (initData === null || !(err instanceof AdminApiError) || err.status !== 401) return;
        history.replaceState(null, '', window.location.pathname + window.location.search);
        try {
          signedIn(await post<AdminSession>('/login/init-data', { initData }));
        } catch (e) {
          setError(e instanceof Error ? e.message : String(e));
        }
      }
    };
    void start().finally(() => setChecking(false));
  }, []);
  const signOut = async () => {
    await post('/logout').catch(() => {});
    setSession(null);
  };
  return <SessionContext.Provider value={{ session, checking, error, signedIn, signOut }}>{children}</SessionContext.Provider>;
};
