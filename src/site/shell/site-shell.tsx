import { Link, Outlet, ScrollRestoration } from 'react-router-dom';
import { economy } from '../../../engine/economy.ts';
import { botLink, config } from '../../config.ts';

const Logo = () => (
  <Link to="/" className="logo" aria-label="MONEY home">
    <img src="/art/logo.svg" alt="" width="36" height="36" />
    <span className="logo-word">MONEY</span>
  </Link>
);

/** §2 header: the social network, the channel, the community and CLICK NOW, every URL from config. */
const Header = () => (
  <header className="site-header">
    <div className="container header-row">
      <Logo />
      <nav className="header-nav" aria-label="Social">
        <a href={config.twitterUrl}>
          <img src="/art/icon-x.svg" alt="" width="16" height="16" />X
        </a>
        <a href={config.channelUrl}>
          <img src="/art/icon-telegram.svg" alt="" width="16" height="16" />Channel
        </a>
        <a href={config.communityUrl}>Community</a>
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
        <Link to="/policy">Privacy Policy</Link>
        <Link to="/terms">Terms of Use</Link>
      </nav>
      <div className="footer-icons">
        <a href={config.twitterUrl} aria-label="MONEY on X">
          <img src="/art/icon-x.svg" alt="" width="22" height="22" />
        </a>
        <a href={config.channelUrl} aria-label="MONEY on Telegram">
          <img src="/art/icon-telegram.svg" alt="" width="22" height="22" />
        </a>
      </div>
      <p className="copyright">© {economy.copyrightYear} MONEY. All rights reserved.</p>
    </div>
  </footer>
);

/** The public tree's shell: header, page area, footer (spec §2). */
export const SiteShell = () => (
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
