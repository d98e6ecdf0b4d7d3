import { Trans, useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { usePageTitle } from '../use-page-title.ts';
import './legal.css';

export interface LegalSection {
  /** The catalog id of the section's heading. */
  heading: string;
  body: ReactNode;
}

/** A paragraph from the legal catalog; `<0>` in the message is the first of `parts`, and so on. */
export const Para = ({ id, parts = [], values }: { id: string; parts?: readonly ReactNode[]; values?: Record<string, unknown> }) => (
  <p>
    <Trans id={id} values={values} components={{ ...parts }} />
  </p>
);

/** A bulleted list whose items start with a bold term (`<0>…</0>`) or are plain text. */
export const Items = ({ ids }: { ids: readonly string[] }) => (
  <ul>
    {ids.map((id) => (
      <li key={id}>
        <Trans id={id} components={{ 0: <strong /> }} />
      </li>
    ))}
  </ul>
);

/** The shared layout of /policy and /terms: numbered sections with anchors. */
export const LegalPage = ({ title, intro, sections }: { title: string; intro: string; sections: readonly LegalSection[] }) => {
  const { _ } = useLingui();
  usePageTitle(_('legal.pageTitle', { title: _(title) }));
  return (
    <main id="main" className="page legal">
      <article>
        <header className="legal-head">
          <p className="eyebrow">{_('legal.eyebrow')}</p>
          <h1>{_(title)}</h1>
          <p className="legal-updated">{_('legal.updated')}</p>
          <div className="legal-intro">
            <p>{_(intro)}</p>
          </div>
        </header>
        {sections.map((s, i) => (
          <section key={s.heading} id={`section-${i + 1}`} aria-labelledby={`section-${i + 1}-title`}>
            <h2 id={`section-${i + 1}-title`}>
              <span className="legal-number">{i + 1}.</span> {_(s.heading)}
            </h2>
            {s.body}
          </section>
        ))}
      </article>
    </main>
  );
};
