import type { ReactNode } from 'react';

export type BadgeTone = 'neutral' | 'accent' | 'active' | 'grace' | 'missed';

/** Status is always written out: the colour only repeats what the text says. */
export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}

export type CanaryHealth = 'Active' | 'Grace' | 'Missed';
const HEALTH_TONE: Record<CanaryHealth, BadgeTone> = { Active: 'active', Grace: 'grace', Missed: 'missed' };

export function HealthBadge({ health }: { health: CanaryHealth }) {
  return <Badge tone={HEALTH_TONE[health]}>{health}</Badge>;
}
