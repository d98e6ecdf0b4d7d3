import { botLink, config } from '../../config.ts';
import { Features } from './features.tsx';
import { Roadmap } from './roadmap.tsx';
import { StatsTiles } from './stats-tiles.tsx';
import { usePageTitle } from '../use-page-title.ts';

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
        <div className="hero-art">
          <img src="/art/hero.svg" alt="A golden $MONEY coin bursting out of a Telegram chat" width="1200" height="640" fetchPriority="high" />
        </div>
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
