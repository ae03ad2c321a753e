import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../env';
import { withD1Delay } from '../lib/d1-delay';

/**
 * The timer pattern shared by messages and guardian ladders: one object per record (named by its id), D1 is
 * the record, and the object only decides *when* to look. Each wake re-reads the record, applies what is
 * due (`advance`, idempotent) and arms the alarm for the next step; null means no more wakes. If the alarm
 * handler throws, the runtime retries it, and the every-minute reconciler repairs any lost timer.
 */
export abstract class EntityClock extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, withD1Delay(env));
  }

  /** Storage key of the record's id. */
  protected abstract readonly idKey: string;
  /** Applies what is due for `id` now; returns when the record next needs its clock. */
  protected abstract advance(id: string): Promise<Date | null>;

  /** Starts (or re-checks) the timer of `id`; returns the next due time in ms, or null. */
  async sync(id: string): Promise<number | null> {
    await this.ctx.storage.put(this.idKey, id);
    return this.advanceAndArm();
  }

  /** The record is gone or closed: no more wakes. */
  async stop(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  override async alarm(): Promise<void> {
    await this.advanceAndArm();
  }

  private async advanceAndArm(): Promise<number | null> {
    const id = await this.ctx.storage.get<string>(this.idKey);
    if (!id) return null;
    const next = await this.advance(id);
    if (!next) {
      await this.stop();
      return null;
    }
    await this.ctx.storage.setAlarm(next);
    return next.getTime();
  }
}
