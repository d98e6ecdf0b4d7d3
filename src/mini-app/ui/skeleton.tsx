/** A shimmering placeholder while a query loads (§2: loading shows skeletons). */
export const Skeleton = ({ height = 64, count = 1, width }: { height?: number; count?: number; width?: number | string }) => (
  <div className="list" aria-busy="true" aria-label="Loading">
    {Array.from({ length: count }, (_, i) => (
      <div key={i} className="skeleton" data-testid="skeleton" style={{ height, width }} />
    ))}
  </div>
);
