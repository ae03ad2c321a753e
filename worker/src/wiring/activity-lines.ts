import type { ActivityLineSource } from '../domains/activity/line-sources';
import { canaryCheckInLines } from '../domains/canary/check-in-lines';
import { canaryEventLines } from '../domains/canary/event-lines';

/**
 * The feed lines other domains keep outside D1's activity table: the canaries' token, ping and link check-ins (in
 * their objects) and what their wakes recorded (made from D1's timer events).
 */
export const ACTIVITY_LINES: readonly ActivityLineSource[] = [canaryCheckInLines, canaryEventLines];
