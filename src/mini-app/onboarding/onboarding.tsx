import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import type { UserStatus } from '../../../engine/wire/api-types.ts';
import { titleFor } from '../../../engine/rules/titles.ts';
import { formatMoney } from '../../../engine/rules/format.ts';
import { config } from '../../config.ts';
import { haptic, shareRefLink, shareStory, telegramUser } from '../../telegram.ts';
import { claimWelcome } from '../api/calls.ts';
import { useApi, useRefLink } from '../api/queries.ts';
import { useEngine, useStatus } from '../engine-context.tsx';
import { messages, notify } from '../messages.ts';
import { titleName } from '../locale.ts';
import { art, MoneyIcon, productName } from '../ui/art.tsx';
import { ConnectX } from '../ui/connect-x.tsx';
import { useClaim } from '../use-claim.ts';
import { EasterPopup } from './easter-popup.tsx';
import { useProgress } from './use-progress.ts';
import './onboarding.css';

/** §2: the step is kept in localStorage under currentSection, default 1. */
export const currentSectionKey = 'currentSection';
const readStep = (): number => {
  const n = Number(localStorage.getItem(currentSectionKey));
  return n >= 1 && n <= 4 ? n : 1;
};

const Bar = ({ label, percent }: { label: string; percent: number }) => (
  <div className="onb__bar">
    <div className="onb__bar-head"><span>{label}</span><span>{percent === 100 ? '✓' : `${percent}%`}</span></div>
    <div className="onb__bar-track" role="progressbar" aria-label={label} aria-valuenow={percent}>
      <div className="onb__bar-fill" style={{ width: `${percent}%` }} />
    </div>
  </div>
);

const Intro = ({ onNext }: { onNext: () => void }) => {
  const { _ } = useLingui();
  return (
    <>
      <div className="onb__hero-coin"><img src={art('coin')} alt="" /></div>
      <img className="onb__logo" src={art('logo')} alt={productName} width={149} height={36} />
      <h1 className="h1 onb__center">{_('app.onb.title')}</h1>
      <p className="hint onb__center">{_('app.onb.intro')}</p>
      <div className="onb__foot"><button className="btn btn--block" onClick={onNext}>{_('app.onb.start')}</button></div>
    </>
  );
};

const PlatformCheck = ({ onNext }: { onNext: () => void }) => {
  const percent = useProgress(true);
  const { _ } = useLingui();
  return (
    <>
      <h1 className="h1 onb__center">{_('app.onb.checking')}</h1>
      <div className="onb__bars">
        <Bar label={_('app.onb.accountAge')} percent={percent} />
        <Bar label={_('app.onb.degenLevel')} percent={percent} />
        <Bar label={_('app.onb.premium')} percent={percent} />
      </div>
      <div className="onb__foot"><button className="btn btn--block" disabled={percent < 100} onClick={onNext}>{_('app.ui.continue')}</button></div>
    </>
  );
};

const Congratulations = ({ status, onNext }: { status: UserStatus; onNext: () => void }) => {
  // §2: the step's progress timer only runs when twAge is not 0.
  const hasX = status.twAge !== 0;
  const percent = useProgress(hasX);
  const title = titleFor(status.teleAge, status.twAge);
  const { _ } = useLingui();
  return (
    <>
      <h1 className="h1 onb__center">{_('app.onb.congratulations')}</h1>
      <p className="hint onb__center">{_('app.onb.youAreA')}</p>
      <img className="onb__title-img" src={art(title.image)} alt="" />
      <h2 className="onb__title gold-text">{titleName(_, title)}</h2>
      <div className="onb__tiles">
        <div className="card"><strong>{status.teleAge}</strong><span className="hint">{_('app.profile.daysOnTelegram')}</span></div>
        <div className="card"><strong>{status.twAge}</strong><span className="hint">{_('app.profile.daysOnTwitter')}</span></div>
      </div>
      {hasX ? (
        <Bar label={_('app.onb.xAccount')} percent={percent} />
      ) : (
        <div className="onb__connect-x" data-testid="onboarding-connect-x">
          <p className="hint onb__center">{_('app.onb.connectXHint')}</p>
          <ConnectX />
        </div>
      )}
      <div className="onb__foot">
        <button className="btn btn--block" disabled={hasX && percent < 100} onClick={onNext}>{_('app.ui.continue')}</button>
      </div>
    </>
  );
};

const Reward = ({ status, onDone }: { status: UserStatus; onDone: () => void }) => {
  const api = useApi();
  const refLink = useRefLink().data;
  const [claimed, setClaimed] = useState(status.isClaimedWelcome);
  const { busy, run } = useClaim();
  const [easter, setEaster] = useState(false);
  const { _ } = useLingui();
  const title = titleFor(status.teleAge, status.twAge);
  const claim = () =>
    run(async () => {
      await claimWelcome(api);
      setClaimed(true);
    });
  const share = () => {
    if (!refLink) return;
    // §2: one configured user gets a story share instead of the link share.
    if (config.storyShareUserId && String(telegramUser()?.id ?? '') === config.storyShareUserId) {
      shareStory(`${window.location.origin}/og-image.png`, refLink);
    } else shareRefLink(refLink);
  };
  return (
    <>
      <h1 className="h1 onb__center">{_('app.onb.yourReward')}</h1>
      <img className="onb__title-img" src={art(title.image)} alt="" />
      <p className="onb__reward"><MoneyIcon /> {formatMoney(status.ageReward.total)}</p>
      <div className="card onb__breakdown">
        <div><span>{_('app.onb.daysOnTelegram', { days: status.teleAge })}</span><strong><bdi>+{formatMoney(status.ageReward.teleReward)}</bdi></strong></div>
        <div><span>{_('app.onb.daysOnX', { days: status.twAge })}</span><strong><bdi>+{formatMoney(status.ageReward.twReward)}</bdi></strong></div>
        <div><span>{_('app.onb.telegramPremium')}</span><strong><bdi>+{formatMoney(status.ageReward.premiumReward)}</bdi></strong></div>
      </div>
      <button className="onb__easter" onClick={() => setEaster(true)}><MoneyIcon /> {_('app.onb.easterEgg')}</button>
      <div className="onb__foot">
        {claimed ? (
          <button className="btn btn--block" disabled={busy} onClick={onDone}>{_('app.onb.continue')}</button>
        ) : (
          <button className="btn btn--block" disabled={busy} onClick={() => void claim()}>{_('app.onb.claimReward')}</button>
        )}
        <button className="btn btn--block btn--ghost" disabled={!refLink} onClick={share}>{_('app.onb.share')}</button>
      </div>
      {easter && <EasterPopup status={status} onClose={() => setEaster(false)} />}
    </>
  );
};

/** Onboarding (§2, §4): steps 1–4 until the welcome reward is claimed and continue is pressed. */
export const Onboarding = ({ onDone }: { onDone: () => void }) => {
  const engine = useEngine();
  const { _ } = useLingui();
  const status = useStatus().data;
  const [step, setStep] = useState(readStep);
  useEffect(() => localStorage.setItem(currentSectionKey, String(step)), [step]);
  const go = (next: number) => {
    haptic.tap();
    setStep(next);
  };
  const start = () => {
    // §2 step 1: with user data go on; otherwise an error toast and a reload of the data.
    if (status) return go(2);
    notify(messages.startNoData, 'error');
    void engine.refresh();
  };
  return (
    <div className="onb" data-step={step}>
      <div className="onb__dots" role="img" aria-label={_('app.onb.step', { step, total: 4 })}>
        {[1, 2, 3, 4].map((n) => <span key={n} className={n <= step ? 'is-on' : ''} />)}
      </div>
      {step === 1 || !status ? <Intro onNext={start} />
        : step === 2 ? <PlatformCheck onNext={() => go(3)} />
        : step === 3 ? <Congratulations status={status} onNext={() => go(4)} />
        : <Reward status={status} onDone={() => {
            localStorage.removeItem(currentSectionKey);
            onDone();
          }} />}
    </div>
  );
};
