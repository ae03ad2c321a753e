import type { TDeadman } from '../../contracts/deadman';
import type { ServiceContext } from '../../env';
import { deadmanDeadlineOf } from './deadman-deadline';

export const INACTIVE_DEADMAN: TDeadman = { active: false, hours: null, deadline: null };

/** The owner's switch, with its deadline as it stands (the latest check-in counted: deadman-deadline.ts). */
export async function getDeadman(ctx: ServiceContext, userId: string): Promise<TDeadman> {
  const row = await deadmanDeadlineOf(ctx, userId);
  return row ? { active: true, hours: row.hours, deadline: new Date(row.deadline).toISOString() } : INACTIVE_DEADMAN;
}
