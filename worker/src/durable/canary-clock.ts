import { advanceCanary } from '../domains/canary/advance-canary';
import { createServiceContext } from '../env';
import { EntityClock } from './entity-clock';

/**
 * One per canary: the alarm is the canary's timer — grace-entry reminder, deadline, each later interval,
 * or the moment a late miss starts to count. A check-in only moves deadlines later, so a wake after one
 * finds nothing due and re-arms.
 */
export class CanaryClock extends EntityClock {
  protected readonly idKey = 'canaryId';

  protected async advance(canaryId: string): Promise<Date | null> {
    // advanceCanary saves the returned instant as the canary's timer_due_at in its last batch.
    const { nextDueAt } = await advanceCanary(createServiceContext(this.env), canaryId, 'alarm', { armsTimer: true });
    return nextDueAt;
  }
}
