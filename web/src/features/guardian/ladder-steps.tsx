import type { LadderStage } from '@afterword/worker/contracts/guardian';

/** The rungs from a missed check-in to a confirmed death, in order (UI.md: "showing where things stand"). */
const RUNGS = [
  { label: 'Checking in', stages: ['watching', 'no_guardians'] },
  { label: 'Missed a check-in', stages: ['missed'] },
  { label: 'Death reported', stages: ['reported'] },
  { label: 'Veto window', stages: ['veto_window', 'on_hold'] },
  { label: 'Death confirmed', stages: ['confirmed'] },
] as const satisfies readonly { label: string; stages: readonly LadderStage[] }[];

/** The ladder as a row of steps; the current one is marked for sight (style) and for screen readers (aria-current). */
export function LadderSteps({ stage }: { stage: LadderStage }) {
  const current = RUNGS.findIndex((r) => (r.stages as readonly LadderStage[]).includes(stage));
  return (
    <ol className="ladder-steps" aria-label="The guardian ladder">
      {RUNGS.map((rung, i) => (
        <li
          key={rung.label}
          className={`ladder-steps__step${i === current ? ' ladder-steps__step--current' : i < current ? ' ladder-steps__step--past' : ''}`}
          aria-current={i === current ? 'step' : undefined}
        >
          {rung.label}
          {stage === 'on_hold' && i === current ? ' (on hold)' : null}
        </li>
      ))}
    </ol>
  );
}
