import { useLingui } from '@lingui/react';
import { useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { economy } from '../../../engine/rules/economy.ts';
import { useArtMask } from '../../art-url.ts';
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

/** A line icon drawn as a mask in the link's colour; its file is asked for again if it failed (src/art-url.ts). */
const SocialIcon = ({ name }: { name: string }) => (
  <span className="icon" style={{ ['--icon' as string]: useArtMask(name) }} aria-hidden="true" />
);

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
              <SocialIcon name="icon-x" />X
            </a>
            <a href={config.channelUrl}>
              <SocialIcon name="icon-telegram" />
              {_('site.shell.channel')}
            </a>
            <a href={config.communityUrl}>
              <SocialIcon name="nav-invite" />
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
            <SocialIcon name="icon-x" />
          </a>
          <a href={config.channelUrl} aria-label={_('site.shell.onTelegram')}>
            <SocialIcon name="icon-telegram" />
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
