import { economy } from '../../../engine/economy.ts';
import { botLink, config } from '../../config.ts';
import { LegalPage, type LegalSection } from './legal-page.tsx';

const sections: readonly LegalSection[] = [
  {
    heading: 'Information We Collect',
    body: (
      <>
        <p>We collect only what we need to run the game and pay out rewards fairly:</p>
        <ul>
          <li>
            <strong>Telegram username</strong> and the user ID, name, language and Premium status that Telegram passes to
            the mini-app when you open it.
          </li>
          <li>
            <strong>X (Twitter) username and profile picture</strong>, if you choose to connect your X account.
          </li>
          <li>
            <strong>Optional contact information</strong> you give us, such as an exchange account ID for a partner task
            or the details in a message you send to support.
          </li>
          <li>
            <strong>Public profile information</strong>, such as the approximate age of your Telegram and X accounts,
            which we use to calculate your welcome reward and title.
          </li>
          <li>
            <strong>Usage and device data</strong>: taps, purchases, completed tasks, referrals, the time of your
            visits, and technical data such as device type, platform, app version and IP address.
          </li>
        </ul>
      </>
    ),
  },
  {
    heading: 'How We Use Your Information',
    body: (
      <ul>
        <li>To create your account, keep your balance, upgrades and progress, and show them to you.</li>
        <li>To calculate rewards, titles, referral bonuses and leaderboard positions.</li>
        <li>To verify tasks, such as a channel subscription or a partner exchange registration.</li>
        <li>To detect and prevent cheating, automated tapping, fraud and abuse.</li>
        <li>To answer your questions and tell you about important changes to the service.</li>
        <li>To understand, in aggregate, how the game is used so that we can improve it.</li>
      </ul>
    ),
  },
  {
    heading: 'How We Share Your Information',
    body: (
      <>
        <p>We do not sell your personal information. We share it only:</p>
        <ul>
          <li>
            with service providers who host our servers, deliver advertising or protect us against bots, under
            contracts that limit their use of the data to providing that service;
          </li>
          <li>with partner exchanges, only the account ID you enter for their task, to confirm the registration;</li>
          <li>publicly, in the limited form of your display name, title and score on the leaderboard;</li>
          <li>when the law requires it, or to protect the rights, safety and property of our users and of MONEY.</li>
        </ul>
      </>
    ),
  },
  {
    heading: 'Data Security',
    body: (
      <p>
        We protect your data with encryption in transit, access controls, and servers that verify every request
        against Telegram&apos;s signed init data. No system is perfectly secure, so we cannot guarantee absolute
        security, but we review our safeguards regularly and will notify affected users of a breach as the law
        requires.
      </p>
    ),
  },
  {
    heading: 'Your Rights',
    body: (
      <>
        <p>Depending on where you live, you have the right to:</p>
        <ul>
          <li>
            <strong>Access</strong> the personal information we hold about you and receive a copy of it;
          </li>
          <li>
            <strong>Deletion</strong>: ask us to delete your account and personal information;
          </li>
          <li>
            <strong>Objection</strong>: object to, or ask us to restrict, how we process your information;
          </li>
          <li>
            <strong>Withdrawing consent</strong> at any time, for example by disconnecting your X account, without
            affecting processing that happened before.
          </li>
        </ul>
        <p>To use any of these rights, contact us as described in section 8.</p>
      </>
    ),
  },
  {
    heading: "Children's Privacy",
    body: (
      <p>
        MONEY is not meant for children under {economy.minimumUserAgeYears}. We do not knowingly collect personal
        information from anyone under {economy.minimumUserAgeYears}. If you believe a child has given us their
        information, contact us and we will delete it.
      </p>
    ),
  },
  {
    heading: 'Changes to This Policy',
    body: (
      <p>
        We may update this policy as the product grows. We will post the new version on this page with a new
        &quot;Last updated&quot; date and, for material changes, announce it in our Telegram channel before it takes
        effect.
      </p>
    ),
  },
  {
    heading: 'Contact Us',
    body: (
      <p>
        For questions about this policy or your data, write to us through the <a href={botLink()}>MONEY bot</a> or in
        our <a href={config.communityUrl}>community group</a>. We reply within {economy.privacyReplyDays} days.
      </p>
    ),
  },
];

/** /policy: the privacy policy's 8 sections (spec §2). */
export const PolicyPage = () => (
  <LegalPage
    title="Privacy Policy"
    intro={
      <p>
        This policy explains what information MONEY (&quot;we&quot;, &quot;us&quot;) collects when you use the MONEY
        Telegram mini-app, bot and this website, how we use it, and the choices you have.
      </p>
    }
    sections={sections}
  />
);
