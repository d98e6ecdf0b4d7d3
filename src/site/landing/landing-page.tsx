import heroSvg from '../../../public/art/hero.svg?raw';
import { botLink, config } from '../../config.ts';
import { Features } from './features.tsx';
import { Roadmap } from './roadmap.tsx';
import { StatsTiles } from './stats-tiles.tsx';
import { usePageTitle } from '../use-page-title.ts';
import './landing.css';

/** The public landing page (spec §2). */
export const LandingPage = () => {
  usePageTitle('MONEY — Telegram Native Social Money');
  return (
    <main id="main" className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero-copy">
          <p className="badge">
            <span className="badge-dot" aria-hidden="true" />
            Exclusively on TON
          </p>
          <h1 id="hero-title">
            Telegram Native <span className="accent">Social Money</span>
          </h1>
          <p className="lead">
            Tap the coin, turn your Telegram and X history into $MONEY, and tip the people you follow. No wallet setup, no
            downloads: it lives right inside Telegram.
          </p>
          <div className="hero-actions">
            <a className="btn btn-primary btn-lg" href={botLink()}>
              Join $MONEY now
            </a>
            <a className="btn btn-ghost btn-lg" href={config.channelUrl}>
              Read the channel
            </a>
          </div>
        </div>
        {/* Inlined (1.9 kB gzip, no styles or scripts inside) so the hero paints with the first render, not one request later. */}
        <div
          className="hero-art"
          role="img"
          aria-label="A golden $MONEY coin orbited by Telegram and TON"
          dangerouslySetInnerHTML={{ __html: heroSvg }}
        />
      </section>
      <StatsTiles />
      <Features />
      <Roadmap />
      <section className="section community" aria-labelledby="community-title">
        <div className="community-card">
          <h2 id="community-title">Join The $MONEY Community</h2>
          <p>
            Airdrop news, roadmap updates and thousands of clickers comparing notes. Say hello in the community group.
          </p>
          <a className="btn btn-primary btn-lg" href={config.communityUrl}>
            Join the community
          </a>
        </div>
      </section>
    </main>
  );
};
