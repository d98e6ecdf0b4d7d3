import { useLingui } from '@lingui/react';
import { useRef, useState } from 'react';
import { economy } from '../../../engine/rules/economy.ts';
import { titleFor } from '../../../engine/rules/titles.ts';
import { useStatus } from '../engine-context.tsx';
import { titleName } from '../locale.ts';
import { art, MoneyIcon, productName } from '../ui/art.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import './coming-soon.css';

/** Exports the card as a JPEG through html-to-image (its own chunk, loaded on the first press). */
const downloadJpeg = async (node: HTMLElement, fileName: string): Promise<void> => {
  const { toJpeg } = await import('html-to-image');
  const dataUrl = await toJpeg(node, {
    quality: 0.95,
    pixelRatio: 2,
    fetchRequestInit: { signal: AbortSignal.timeout(economy.imageExportTimeoutMs) },
  });
  const link = document.createElement('a');
  link.href = dataUrl;
  link.download = fileName;
  link.click();
};

/** /comingsoon (§2): the shareable reward card, and the debug "Down img" JPEG export. */
export const ComingSoonScreen = () => {
  const status = useStatus().data;
  const cardRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const { _ } = useLingui();
  if (!status) return <Skeleton height={420} />;
  const name = status.teleUsername;
  const title = titleFor(status.teleAge, status.twAge);
  return (
    <div className="soon">
      <div className="soon__card" ref={cardRef} data-testid="reward-card">
        <div className="soon__name">{_('app.soon.reward', { name })}</div>
        <div className="soon__amount"><MoneyIcon /> {economy.rewardCardAmount}</div>
        <img className="soon__img" src={art(title.image)} alt={titleName(_, title)} />
        <div className="soon__line">{_('app.soon.isA', { name, title: titleName(_, title) })}</div>
        <div className="soon__tiles">
          <div><strong>{status.teleAge}</strong><span>{_('app.profile.daysOnTelegram')}</span></div>
          <div><strong>{status.twAge}</strong><span>{_('app.profile.daysOnTwitter')}</span></div>
        </div>
        <img className="soon__logo" src={art('logo')} alt={productName} />
      </div>
      <button
        className="btn btn--ghost btn--small soon__debug"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            if (cardRef.current) await downloadJpeg(cardRef.current, `${name}-reward.jpeg`);
          } catch (error) {
            console.error('Down img', error);
          }
          setBusy(false);
        }}
      >
        {_('app.soon.download')}
      </button>
    </div>
  );
};
