import type { LadderStage } from '@afterword/worker/contracts/guardian';
import { Badge, type BadgeTone } from '../../components/badge';
import { STAGE_LABEL } from './texts';

// The three status colours of the app: calm, needs attention, grave.
const STAGE_TONE: Record<LadderStage, BadgeTone> = {
  no_guardians: 'neutral',
  watching: 'active',
  missed: 'grace',
  on_hold: 'grace',
  reported: 'missed',
  veto_window: 'missed',
  confirmed: 'missed',
};

/** A ladder stage, always written out (the colour only repeats it). */
export function StageBadge({ stage }: { stage: LadderStage }) {
  return <Badge tone={STAGE_TONE[stage]}>{STAGE_LABEL[stage]}</Badge>;
}
