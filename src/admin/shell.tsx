import { useEffect, useRef, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { adminRoutes } from './routes.tsx';
import { useSession } from './session.tsx';

/** Sidebar on a desktop, a scrolling bar of links on a phone (admin.css). */
export const Shell = ({ children }: { children: ReactNode }) => {
  const { session, signOut } = useSession();
  const links = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  // On a phone the links scroll sideways: keep the current page's link in view.
  useEffect(() => {
    const active = links.current?.querySelector<HTMLElement>('.active');
    if (active && links.current) links.current.scrollLeft = active.offsetLeft - links.current.offsetLeft - 8;
  }, [pathname]);
  return (
    <div className="shell">
      <nav className="nav" aria-label="Console">
        <div className="nav__brand">MONEY console</div>
        <div className="nav__links" ref={links}>
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
