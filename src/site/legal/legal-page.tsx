import type { ReactNode } from 'react';
import { usePageTitle } from '../use-page-title.ts';
import './legal.css';

export interface LegalSection {
  heading: string;
  body: ReactNode;
}

/** The shared layout of /policy and /terms: numbered sections with anchors. */
export const LegalPage = ({ title, intro, sections }: { title: string; intro: ReactNode; sections: readonly LegalSection[] }) => {
  usePageTitle(`${title} — MONEY`);
  return (
    <main id="main" className="page legal">
      <article>
        <header className="legal-head">
          <p className="eyebrow">Legal</p>
          <h1>{title}</h1>
          <p className="legal-updated">Last updated: September 2024</p>
          <div className="legal-intro">{intro}</div>
        </header>
        {sections.map((s, i) => (
          <section key={s.heading} id={`section-${i + 1}`} aria-labelledby={`section-${i + 1}-title`}>
            <h2 id={`section-${i + 1}-title`}>
              <span className="legal-number">{i + 1}.</span> {s.heading}
            </h2>
            {s.body}
          </section>
        ))}
      </article>
    </main>
  );
};
