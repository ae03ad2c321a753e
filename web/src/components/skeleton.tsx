interface SkeletonProps {
  lines?: number;
  /** Announced while loading. */
  label?: string;
  /** A visual placeholder only (nothing is loading): hidden from assistive tech entirely. */
  decorative?: boolean;
}

export function Skeleton({ lines = 3, label = 'Loading', decorative = false }: SkeletonProps) {
  const a11y = decorative ? { 'aria-hidden': true as const } : { role: 'status', 'aria-label': label };
  return (
    <div className="skeleton" {...a11y}>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton__line" aria-hidden="true" />
      ))}
    </div>
  );
}
