import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { economy } from '../../../engine/economy.ts';
import { botLink, config } from '../../config.ts';

const Logo = () => (
  <Link to="/" className="logo" aria-label="MONEY home">
    <img src="/art/logo.svg" alt="" width="330" height="80" />
  </Link>
);

/** §2 header: the social network, the channel, the community and CLICK NOW, every URL from config. */
const Header = () => (
  <header className="site-header">
    <div className="container header-row">
      <Logo />
      <nav className="header-nav" aria-label="Social">
        <a href={config.twitterUrl}>
          <span className="icon icon-x" aria-hidden="true" />X
        </a>
        <a href={config.channelUrl}>
          <span className="icon icon-telegram" aria-hidden="true" />Channel
        </a>
        <a href={config.communityUrl}>
          <span className="icon icon-community" aria-hidden="true" />Community
        </a>
      </nav>
      <a className="btn btn-primary header-cta" href={botLink()}>
        CLICK NOW
      </a>
    </div>
  </header>
);

/** §2 footer: the 2024 copyright line, the legal links and the social icons. */
const Footer = () => (
  <footer className="site-footer">
    <div className="container footer-row">
      <Logo />
      <nav className="footer-nav" aria-label="Legal">
        <NavLink to="/policy">Privacy Policy</NavLink>
        <NavLink to="/terms">Terms of Use</NavLink>
      </nav>
      <div className="footer-icons">
        <a href={config.twitterUrl} aria-label="MONEY on X">
          <span className="icon icon-x" aria-hidden="true" />
        </a>
        <a href={config.channelUrl} aria-label="MONEY on Telegram">
          <span className="icon icon-telegram" aria-hidden="true" />
        </a>
      </div>
      <p className="copyright">© {economy.copyrightYear} MONEY. All rights reserved.</p>
    </div>
  </footer>
);

/**
 * After an in-app navigation, moves focus to the new page's heading so keyboard and screen-reader
 * users start reading the new page instead of staying on the link they used.
 */
const useFocusOnNavigate = (): void => {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const heading = document.querySelector<HTMLElement>('main h1');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus({ preventScroll: true });
  }, [pathname]);
};

/** The public tree's shell: header, page area, footer (spec §2). */
export const SiteShell = () => {
  useFocusOnNavigate();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <Outlet />
      <Footer />
      <ScrollRestoration />
    </>
  );
};
