/** The event releases, webhooks and notifications consume (JOBS queue), sent by each canary's object (durable/canary-clock.ts). */
export type { MissedCheckinsEvent } from '../../contracts/jobs';
