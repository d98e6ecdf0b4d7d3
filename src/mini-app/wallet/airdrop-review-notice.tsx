import { useLingui } from '@lingui/react';
import { reasonKindsOf } from '../../../engine/wire/airdrop-review.ts';
import { config } from '../../config.ts';
import { openLink, openTelegramLink } from '../../telegram.ts';
import { useStatus } from '../engine-context.tsx';

/** The kinds' lines, one catalog id each (engine/wire/airdrop-review.ts airdropReasonKinds). */
const kindIds = { tapping: 'app.review.kind.tapping', referrals: 'app.review.kind.referrals', group: 'app.review.kind.group', device: 'app.review.kind.device' } as const;

/**
 * The integrity review as the player sees it (docs/airdrop.md "Integrity review"): under review or
 * left out of the airdrop, which kind of behaviour it is about, and how to appeal (support in the
 * community, as for a frozen account). Never a score or a threshold; nothing while clear.
 */
export const AirdropReviewNotice = () => {
  const { _ } = useLingui();
  const review = useStatus().data?.airdropReview;
  if (review === undefined || review.state === 'clear') return null;
  const excluded = review.state === 'excluded';
  // An operator may exclude a player on evidence of their own (support, a report): no kind to name then.
  const kinds = reasonKindsOf(review.reasons);
  return (
    <section className={`card review-notice${excluded ? ' review-notice--excluded' : ''}`} role="status" data-testid="airdrop-review">
      <h2 className="review-notice__title">{_(excluded ? 'app.review.titleExcluded' : 'app.review.titleReview')}</h2>
      {kinds.length > 0 && (
        <>
          <p className="review-notice__why">{_('app.review.why')}</p>
          <ul className="review-notice__kinds">
            {kinds.map((kind) => (
              <li key={kind} data-kind={kind}>{_(kindIds[kind])}</li>
            ))}
          </ul>
        </>
      )}
      <p className="review-notice__body">{_(excluded ? 'app.review.bodyExcluded' : 'app.review.bodyReview')}</p>
      <div className="review-notice__actions">
        <button type="button" className="btn btn--small" onClick={() => openTelegramLink(config.communityUrl)}>{_('app.review.appeal')}</button>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => openLink(new URL('/airdrop', location.href).href)}>{_('app.review.rules')}</button>
      </div>
    </section>
  );
};
