import { useLingui } from '@lingui/react';

/** §2: "The Next Generation Of Social Money" and its four cards (text in the site catalog). */
const cards = [
  { id: 'telegram', image: '/art/feature-telegram-ogs.svg' },
  { id: 'twitter', image: '/art/feature-twitter-ogs.svg' },
  { id: 'creators', image: '/art/feature-creators.svg' },
  { id: 'community', image: '/art/feature-community.svg' },
] as const;

export const Features = () => {
  const { _ } = useLingui();
  return (
    <section className="section" aria-labelledby="features-title">
      <div className="section-head centered">
        <p className="eyebrow">{_('site.features.eyebrow')}</p>
        <h2 id="features-title">{_('site.features.title')}</h2>
      </div>
      <ul className="feature-grid">
        {cards.map((c) => (
          <li className="feature-card" key={c.id}>
            <img src={c.image} alt="" width="160" height="120" loading="lazy" decoding="async" />
            <h3>{_(`site.features.${c.id}.title`)}</h3>
            <p>{_(`site.features.${c.id}.text`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
};
