import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { economy } from '../../../engine/economy.ts';
import { botLink, config } from '../../config.ts';
import { AlternateLinks, LanguageSwitcher } from './language-switcher.tsx';

const Logo = () => {
  const { _ } = useLingui();
  return (
    <Link to="/" className="logo" aria-label={_('site.shell.homeLabel')}>
      <img src="/art/logo.svg" alt="" width="330" height="80" />
    </Link>
  );
};

/** §2 header: the social network, the channel, the community and CLICK NOW, every URL from config. */
const Header = () => {
  const { _ } = useLingui();
  return (
    <header className="site-header">
      <div className="container header-row">
        <Logo />
        <div className="header-links">
          <nav className="header-nav" aria-label={_('site.shell.socialNav')}>
            <a href={config.twitterUrl}>
              <span className="icon icon-x" aria-hidden="true" />X
            </a>
            <a href={config.channelUrl}>
              <span className="icon icon-telegram" aria-hidden="true" />
              {_('site.shell.channel')}
            </a>
            <a href={config.communityUrl}>
              <span className="icon icon-community" aria-hidden="true" />
              {_('site.shell.community')}
            </a>
          </nav>
          <LanguageSwitcher />
        </div>
        <a className="btn btn-primary header-cta" href={botLink()}>
          {_('site.shell.clickNow')}
        </a>
      </div>
    </header>
  );
};

/** §2 footer: the 2024 copyright line, the legal links and the social icons. */
const Footer = () => {
  const { _ } = useLingui();
  return (
    <footer className="site-footer">
      <div className="container footer-row">
        <Logo />
        <nav className="footer-nav" aria-label={_('site.shell.legalNav')}>
          <NavLink to="/policy">{_('site.shell.privacy')}</NavLink>
          <NavLink to="/terms">{_('site.shell.terms')}</NavLink>
          <NavLink to="/airdrop">{_('site.shell.airdrop')}</NavLink>
        </nav>
        <div className="footer-icons">
          <a href={config.twitterUrl} aria-label={_('site.shell.onX')}>
            <span className="icon icon-x" aria-hidden="true" />
          </a>
          <a href={config.channelUrl} aria-label={_('site.shell.onTelegram')}>
            <span className="icon icon-telegram" aria-hidden="true" />
          </a>
        </div>
        <p className="copyright">{_('site.shell.copyright', { year: String(economy.copyrightYear) })}</p>
      </div>
    </footer>
  );
};

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
  const { _ } = useLingui();
  useFocusOnNavigate();
  return (
    <>
      <AlternateLinks />
      <a className="skip-link" href="#main">
        {_('site.shell.skip')}
      </a>
      <Header />
      <Outlet />
      <Footer />
      <ScrollRestoration />
    </>
  );
};
