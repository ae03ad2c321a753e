import { advanceMessage } from '../domains/messages/release/advance-message';
import { createServiceContext } from '../wiring/service-context';
import { EntityClock } from './entity-clock';

/**
 * One per message: the alarm is the message's next time-based step — `deliver_at` for a message without
 * rules, a fixed date, the end of a cancel window, a delay after death. A message only a canary event can
 * move has no alarm.
 */
export class ReleaseClock extends EntityClock {
  protected readonly idKey = 'messageId';

  protected async advance(messageId: string): Promise<Date | null> {
    const { nextWakeAt } = await advanceMessage(createServiceContext(this.env), messageId, 'alarm');
    return nextWakeAt;
  }
}
