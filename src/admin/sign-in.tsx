/**
 * The sign-in page: Telegram's Login Widget (its fields are checked on the server with the bot
 * token's SHA-256, docs/admin.md), or the hint to open /admin from the bot.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AdminSession } from '../../engine/wire/admin-types.ts';
import { config } from '../config.ts';
import { post } from './api.ts';
import { useSession } from './session.tsx';

/** The widget redirects here with its signed fields in the query (data-auth-url: no eval under our CSP). */
export const widgetReturnPath = '/admin/login';
const widgetFields = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash'];

export const SignInPage = () => {
  const { signedIn, error: sessionError } = useSession();
  const [error, setError] = useState<string | undefined>(sessionError);
  const widget = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const q = new URLSearchParams(window.location.search);
    if (window.location.pathname === widgetReturnPath && q.has('hash')) {
      const fields = Object.fromEntries(widgetFields.filter((k) => q.has(k)).map((k) => [k, q.get(k)!]));
      // Off the return URL (its signed fields stay out of the history), to the dashboard.
      navigate('/', { replace: true });
      post<AdminSession>('/login/widget', fields).then(signedIn, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
      return;
    }
    const s = document.createElement('script');
    s.src = 'https://telegram.org/js/telegram-widget.js?22';
    s.async = true;
    s.dataset.telegramLogin = config.botUsername;
    s.dataset.size = 'large';
    s.dataset.authUrl = `${window.location.origin}${widgetReturnPath}`;
    s.dataset.requestAccess = 'write';
    widget.current?.appendChild(s);
    return () => s.remove();
  }, [signedIn, navigate]);
  return (
    <main className="signin">
      <div className="signin__card">
        <h1>MONEY console</h1>
        <p>Sign in with the Telegram account listed in <code>ADMIN_IDS</code>.</p>
        <div ref={widget} className="signin__widget" data-testid="login-widget" />
        <p className="muted">Or send <code>/admin</code> to @{config.botUsername} and open the console from its button.</p>
        {error && <p className="error" role="alert">{error}</p>}
      </div>
    </main>
  );
};
