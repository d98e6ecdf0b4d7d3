import { Link } from 'react-router-dom';
import { economy } from '../../../engine/economy.ts';
import { botLink, config } from '../../config.ts';
import { LegalPage, type LegalSection } from './legal-page.tsx';

const sections: readonly LegalSection[] = [
  {
    heading: 'Acceptance of Terms',
    body: (
      <p>
        By opening the MONEY mini-app, using the MONEY bot or visiting this website (together, the &quot;Service&quot;),
        you agree to these Terms of Use. If you do not agree, do not use the Service. You must be at least{' '}
        {economy.minimumUserAgeYears} years old to use it.
      </p>
    ),
  },
  {
    heading: 'In-App Purchases',
    body: (
      <>
        <p>
          The Service may offer boosts, upgrades and other digital items for purchase. These items are for
          entertainment only: they have no monetary value outside the game, are not an investment and cannot be
          exchanged for money by us.
        </p>
        <p>
          All purchases are final. We do not offer refunds, except where the law that applies to you requires them.
        </p>
      </>
    ),
  },
  {
    heading: 'Payment Disputes',
    body: (
      <p>
        If you believe a charge is wrong, contact us first so that we can look into it. Payments made through Telegram
        or a third-party wallet are also governed by that provider&apos;s rules, and we may suspend an account while a
        chargeback or dispute is open.
      </p>
    ),
  },
  {
    heading: 'Disclaimers',
    body: (
      <p>
        The Service is provided &quot;as is&quot; and &quot;as available&quot;, without warranties of any kind. In-game
        balances, including $MONEY and Dollar, are game points until an official distribution is announced. We do not
        promise that any token will be listed, traded or hold any value, and nothing on the Service is financial
        advice.
      </p>
    ),
  },
  {
    heading: 'Intellectual Property',
    body: (
      <p>
        The MONEY name, logo, artwork, software and content belong to us or our licensors. We grant you a personal,
        revocable, non-transferable licence to use the Service for its intended purpose. You may not copy, modify,
        reverse-engineer or resell it.
      </p>
    ),
  },
  {
    heading: 'Privacy',
    body: (
      <p>
        Our <Link to="/policy">Privacy Policy</Link> explains what information we collect and how we use it. It forms
        part of these Terms.
      </p>
    ),
  },
  {
    heading: 'Termination',
    body: (
      <p>
        We may suspend or close an account, and remove its balance, if it breaks these Terms, for example by using
        bots, scripts, multiple accounts or exploits to earn rewards. You may stop using the Service and ask us to
        delete your account at any time.
      </p>
    ),
  },
  {
    heading: 'Limitation of Liability',
    body: (
      <p>
        To the fullest extent the law allows, MONEY and its team are not liable for any indirect, incidental, special
        or consequential damages, or for loss of data, profits or in-game items. Our total liability for any claim is
        limited to the amount you paid us in the twelve months before it arose.
      </p>
    ),
  },
  {
    heading: 'Indemnification',
    body: (
      <p>
        You agree to indemnify and hold harmless MONEY and its team from any claim, loss or expense, including legal
        fees, that arises from your use of the Service or your breach of these Terms.
      </p>
    ),
  },
  {
    heading: 'Governing Law',
    body: (
      <p>
        These Terms are governed by the laws of the Republic of Seychelles, without regard to its conflict-of-law
        rules. Disputes will be resolved by the courts of Seychelles unless the law of your country gives you the
        right to bring them elsewhere.
      </p>
    ),
  },
  {
    heading: 'Changes to These Terms',
    body: (
      <p>
        We may change these Terms. We will give at least {economy.termsNoticeDays} days&apos; notice of a change on
        this page and in our <a href={config.channelUrl}>Telegram channel</a> before it takes effect. If you keep using
        the Service after that, you accept the new Terms.
      </p>
    ),
  },
  {
    heading: 'Telegram Mini-App Terms',
    body: (
      <p>
        MONEY runs as a Telegram mini-app. Your use of it is also subject to Telegram&apos;s Terms of Service and its
        Terms for Mini Apps. Telegram is not a party to these Terms and is not responsible for the Service.
      </p>
    ),
  },
  {
    heading: 'Contact',
    body: (
      <p>
        Questions about these Terms? Write to us through the <a href={botLink()}>MONEY bot</a> or in our{' '}
        <a href={config.communityUrl}>community group</a>.
      </p>
    ),
  },
];

/** /terms: the terms of use's 13 sections (spec §2). */
export const TermsPage = () => (
  <LegalPage
    title="Terms of Use"
    intro={<p>Please read these terms carefully. They are an agreement between you and MONEY about your use of the Service.</p>}
    sections={sections}
  />
);
