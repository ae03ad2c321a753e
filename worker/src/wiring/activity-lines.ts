import type { ActivityLineSource } from '../domains/activity/line-sources';
import { canaryCheckInLines } from '../domains/canary/check-in-lines';

/** The feed lines other domains keep outside D1's activity table: the canaries' token, ping and link check-ins. */
export const ACTIVITY_LINES: readonly ActivityLineSource[] = [canaryCheckInLines];
