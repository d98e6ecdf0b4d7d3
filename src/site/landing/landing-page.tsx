import { Trans, useLingui } from '@lingui/react';
import heroSvg from '../../../public/art/hero.svg?raw';
import { botLink, config } from '../../config.ts';
import { Features } from './features.tsx';
import { Roadmap } from './roadmap.tsx';
import { StatsTiles } from './stats-tiles.tsx';
import { usePageTitle } from '../use-page-title.ts';
import './landing.css';

/** The public landing page (spec §2). */
export const LandingPage = () => {
  const { _ } = useLingui();
  usePageTitle(_('site.landing.title'));
  return (
    <main id="main" className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero-copy">
          <p className="badge">
            <span className="badge-dot" aria-hidden="true" />
            {_('site.landing.badge')}
          </p>
          <h1 id="hero-title">
            <Trans id="site.landing.heroTitle" components={{ 0: <span className="accent" /> }} />
          </h1>
          <p className="lead">{_('site.landing.lead')}</p>
          <div className="hero-actions">
            <a className="btn btn-primary btn-lg" href={botLink()}>
              {_('site.landing.join')}
            </a>
            <a className="btn btn-ghost btn-lg" href={config.channelUrl}>
              {_('site.landing.readChannel')}
            </a>
          </div>
        </div>
        {/* Inlined (1.9 kB gzip, no styles or scripts inside) so the hero paints with the first render, not one request later. */}
        <div
          className="hero-art"
          role="img"
          aria-label={_('site.landing.heroArt')}
          dangerouslySetInnerHTML={{ __html: heroSvg }}
        />
      </section>
      <StatsTiles />
      <Features />
      <Roadmap />
      <section className="section community" aria-labelledby="community-title">
        <div className="community-card">
          <h2 id="community-title">{_('site.landing.communityTitle')}</h2>
          <p>{_('site.landing.communityText')}</p>
          <a className="btn btn-primary btn-lg" href={config.communityUrl}>
            {_('site.landing.communityJoin')}
          </a>
        </div>
      </section>
    </main>
  );
};
