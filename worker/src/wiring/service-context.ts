import { createDb } from '@afterword/db';
import type { Bindings, ServiceContext } from '../env';
import { systemClock, type Clock } from '../lib/clock';
import { ACTIVITY_LINES } from './activity-lines';
import { CHECK_IN_PARTICIPANTS } from './check-in-participants';

/**
 * The service context every request, queue consumer, object and cron run hands the domains: the database,
 * the bindings, the clock, and what is composed across domains (wiring/check-in-participants.ts,
 * wiring/activity-lines.ts).
 */
export function createServiceContext(env: Bindings, now: Clock = systemClock, defer?: ServiceContext['defer']): ServiceContext {
  return { db: createDb(env.DB), env, now, checkInParticipants: CHECK_IN_PARTICIPANTS, activityLines: ACTIVITY_LINES, ...(defer ? { defer } : {}) };
}
