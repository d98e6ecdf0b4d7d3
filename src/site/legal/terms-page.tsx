import { Link } from 'react-router-dom';
import { economy } from '../../../engine/rules/economy.ts';
import { botLink, config } from '../../config.ts';
import { LegalPage, Para, type LegalSection } from './legal-page.tsx';

const t = (key: string) => `legal.terms.${key}`;

/** A section of one paragraph: `legal.terms.<name>.heading` and `.body`. */
const simple = (name: string, props: Omit<Parameters<typeof Para>[0], 'id'> = {}): LegalSection => ({
  heading: t(`${name}.heading`),
  body: <Para id={t(`${name}.body`)} {...props} />,
});

const sections: readonly LegalSection[] = [
  simple('acceptance', { values: { age: economy.minimumUserAgeYears } }),
  {
    heading: t('purchases.heading'),
    body: (
      <>
        <Para id={t('purchases.items')} />
        <Para id={t('purchases.final')} />
      </>
    ),
  },
  simple('disputes'),
  simple('disclaimers'),
  simple('ip'),
  simple('privacy', { parts: [<Link to="/policy" />] }),
  simple('termination'),
  simple('liability'),
  simple('indemnification'),
  simple('law'),
  simple('changes', { values: { days: economy.termsNoticeDays }, parts: [<a href={config.channelUrl} />] }),
  simple('telegram'),
  simple('contact', { parts: [<a href={botLink()} />, <a href={config.communityUrl} />] }),
];

/** /terms: the terms of use's 13 sections (spec §2); the text is the legal catalog's. */
export const TermsPage = () => <LegalPage title={t('title')} intro={t('intro')} sections={sections} />;
