import { advanceLadder } from '../domains/guardian/advance-ladder';
import { createServiceContext } from '../wiring/service-context';
import { EntityClock } from './entity-clock';

/**
 * One per owner (named by the owner's id): the alarm is the earliest of the open reports' halfway
 * reminder, window end, and — when a window ended during a hold — the hold's end. Each wake re-reads D1
 * (advanceLadder is idempotent: every step is a compare-and-set), so repeated alarms change nothing.
 */
export class GuardianClock extends EntityClock {
  protected readonly idKey = 'ownerId';

  protected async advance(ownerId: string): Promise<Date | null> {
    const { nextWakeAt } = await advanceLadder(createServiceContext(this.env), ownerId, 'alarm');
    return nextWakeAt;
  }
}
