import { economy } from '../../../engine/rules/economy.ts';
import { botLink, config } from '../../config.ts';
import { Items, LegalPage, Para, type LegalSection } from './legal-page.tsx';

const p = (key: string) => `legal.policy.${key}`;

const sections: readonly LegalSection[] = [
  {
    heading: p('collect.heading'),
    body: (
      <>
        <Para id={p('collect.intro')} />
        <Items ids={['telegram', 'x', 'contact', 'public', 'usage'].map((k) => p(`collect.${k}`))} />
      </>
    ),
  },
  {
    heading: p('use.heading'),
    body: <Items ids={['account', 'rewards', 'tasks', 'fraud', 'support', 'improve'].map((k) => p(`use.${k}`))} />,
  },
  {
    heading: p('share.heading'),
    body: (
      <>
        <Para id={p('share.intro')} />
        <Items ids={['providers', 'exchanges', 'public', 'law'].map((k) => p(`share.${k}`))} />
      </>
    ),
  },
  { heading: p('security.heading'), body: <Para id={p('security.body')} /> },
  {
    heading: p('rights.heading'),
    body: (
      <>
        <Para id={p('rights.intro')} />
        <Items ids={['access', 'deletion', 'objection', 'consent'].map((k) => p(`rights.${k}`))} />
        <Para id={p('rights.contact')} values={{ section: 8 }} />
      </>
    ),
  },
  { heading: p('children.heading'), body: <Para id={p('children.body')} values={{ age: economy.minimumUserAgeYears }} /> },
  { heading: p('changes.heading'), body: <Para id={p('changes.body')} /> },
  {
    heading: p('contact.heading'),
    body: (
      <Para
        id={p('contact.body')}
        values={{ days: economy.privacyReplyDays }}
        parts={[<a href={botLink()} />, <a href={config.communityUrl} />]}
      />
    ),
  },
];

/** /policy: the privacy policy's 8 sections (spec §2); the text is the legal catalog's. */
export const PolicyPage = () => <LegalPage title={p('title')} intro={p('intro')} sections={sections} />;
