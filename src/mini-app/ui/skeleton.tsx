import { useLingui } from '@lingui/react';

/** A shimmering placeholder while a query loads (§2: loading shows skeletons). */
export const Skeleton = ({ height = 64, count = 1, width }: { height?: number; count?: number; width?: number | string }) => {
  const { _ } = useLingui();
  return (
    <div className="list" role="status" aria-busy="true" aria-label={_('app.ui.loading')}>
      {Array.from({ length: count }, (_slot, i) => (
        <div key={i} className="skeleton" data-testid="skeleton" style={{ height, width }} />
      ))}
    </div>
  );
};
