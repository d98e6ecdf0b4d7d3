import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { adminRoutes } from './routes.tsx';
import { useSession } from './session.tsx';

/** Sidebar on a desktop, a scrolling bar of links on a phone (admin.css). */
export const Shell = ({ children }: { children: ReactNode }) => {
  const { session, signOut } = useSession();
  return (
    <div className="shell">
      <nav className="nav" aria-label="Console">
        <div className="nav__brand">MONEY console</div>
        <div className="nav__links">
          {adminRoutes
            .filter((r) => r.label)
            .map((r) => (
              <NavLink key={r.path} to={r.path} end={r.path === '/'} className="nav__link">
                {r.label}
              </NavLink>
            ))}
        </div>
        <div className="nav__who">
          <span className="muted">Admin {session?.adminId}</span>
          <button type="button" className="btn btn--ghost" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </nav>
      <main className="page">{children}</main>
    </div>
  );
};
