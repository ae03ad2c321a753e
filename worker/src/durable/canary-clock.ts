import { DurableObject } from 'cloudflare:workers';
import { advanceCanary } from '../domains/canary/advance-canary';
import { createServiceContext, type Bindings } from '../env';

/**
 * One per canary (named by its id): the alarm is the canary's timer. D1 is the record; this object only
 * decides *when* to look. Each wake re-reads the canary, records what is due (advanceCanary, idempotent)
 * and arms the alarm for the next entry of the schedule — grace-entry reminder, deadline, each later
 * interval, or the moment a late miss starts to count. A check-in only moves deadlines later, so a
 * wake after one finds nothing due and re-arms. If the alarm handler throws, the runtime retries it.
 */
export class CanaryClock extends DurableObject<Bindings> {
  /** Starts (or re-checks) the timer of `canaryId`; returns the next due time in ms, or null. */
  async sync(canaryId: string): Promise<number | null> {
    await this.ctx.storage.put('canaryId', canaryId);
    return this.advanceAndArm();
  }

  /** The canary was deleted: no more wakes. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    await this.advanceAndArm();
  }

  private async advanceAndArm(): Promise<number | null> {
    const canaryId = await this.ctx.storage.get<string>('canaryId');
    if (!canaryId) return null;
    const services = createServiceContext(this.env);
    // advanceCanary saves the returned instant as the canary's timer_due_at in its last batch.
    const { nextDueAt } = await advanceCanary(services, canaryId, 'alarm', { armsTimer: true });
    if (!nextDueAt) {
      await this.stop();
      return null;
    }
    await this.ctx.storage.setAlarm(nextDueAt);
    return nextDueAt.getTime();
  }
}
