import { Trans, useLingui } from '@lingui/react';
import { intlTag } from '../../../engine/rules/i18n/format.ts';
import type { Locale } from '../../../engine/rules/i18n/locales.ts';
import { config } from '../../config.ts';
import { usePageTitle } from '../use-page-title.ts';
import './airdrop.css';

const criteria = ['tapping', 'invites', 'devices', 'trust'] as const;
const eligible = ['wallet', 'balance', 'standing'] as const;

/** A published day (YYYY-MM-DD, the server's AIRDROP_* settings) in the page's language, or "announced in the channel". */
const Day = ({ day }: { day: string | null | undefined }) => {
  const { i18n } = useLingui();
  if (!day) return <Trans id="site.airdrop.announced" components={{ 0: <a href={config.channelUrl} /> }} />;
  // A UTC day: formatted in UTC, so no time zone moves it to the day before.
  const text = new Intl.DateTimeFormat(intlTag(i18n.locale as Locale), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
  return <time dateTime={day}>{text}</time>;
};

/**
 * /airdrop: the airdrop's published criteria and dates (docs/airdrop.md "Integrity review") in
 * words: who is paid, what the review looks at, how to appeal. The thresholds stay unpublished.
 */
export const AirdropPage = () => {
  const { _ } = useLingui();
  usePageTitle(_('site.airdrop.pageTitle'));
  const dates = config.airdropDates;
  return (
    <main id="main" className="page airdrop-rules">
      <article>
        <header className="airdrop-rules__head">
          <p className="eyebrow">{_('site.airdrop.eyebrow')}</p>
          <h1>{_('site.airdrop.title')}</h1>
          <p className="airdrop-rules__intro">{_('site.airdrop.intro')}</p>
        </header>
        <section aria-labelledby="airdrop-dates" className="airdrop-rules__dates">
          <h2 id="airdrop-dates">{_('site.airdrop.dates')}</h2>
          <dl>
            <div><dt>{_('site.airdrop.reviewEnds')}</dt><dd><Day day={dates?.reviewEnds} /></dd></div>
            <div><dt>{_('site.airdrop.snapshotDay')}</dt><dd><Day day={dates?.snapshotDay} /></dd></div>
          </dl>
        </section>
        <section aria-labelledby="airdrop-eligible">
          <h2 id="airdrop-eligible">{_('site.airdrop.eligibleTitle')}</h2>
          <ul>{eligible.map((k) => <li key={k}>{_(`site.airdrop.eligible.${k}`)}</li>)}</ul>
        </section>
        <section aria-labelledby="airdrop-review">
          <h2 id="airdrop-review">{_('site.airdrop.reviewTitle')}</h2>
          <p>{_('site.airdrop.reviewText')}</p>
          <h3>{_('site.airdrop.criteriaTitle')}</h3>
          <ul className="airdrop-rules__criteria">
            {criteria.map((k) => (
              <li key={k}><Trans id={`site.airdrop.criteria.${k}`} components={{ 0: <strong /> }} /></li>
            ))}
          </ul>
          <p className="airdrop-rules__note">{_('site.airdrop.privacy')}</p>
        </section>
        <section aria-labelledby="airdrop-see">
          <h2 id="airdrop-see">{_('site.airdrop.seeTitle')}</h2>
          <p>{_('site.airdrop.seeText')}</p>
          <h2>{_('site.airdrop.appealTitle')}</h2>
          <p><Trans id="site.airdrop.appealText" components={{ 0: <a href={config.communityUrl} /> }} /></p>
          <p className="airdrop-rules__note">{_('site.airdrop.excludedMoney')}</p>
        </section>
      </article>
    </main>
  );
};
