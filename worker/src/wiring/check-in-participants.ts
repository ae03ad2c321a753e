import type { CheckInParticipant } from '../domains/canary/check-in-rows';
import { deadmanCheckInStatements } from '../domains/deadman/deadman-check-in';
import { foldDeletedCanaryStatements } from '../domains/deadman/deadman-deadline';
import { afterRefutation, refuteOnCheckInStatements } from '../domains/guardian/refute-on-check-in';
import { afterDisarm, disarmOnCheckInStatements } from '../domains/messages/release/disarm-on-check-in';

/**
 * What a check-in changes besides its canary, in the same D1 batch (domains/canary/check-in-projection.ts):
 * a scheduled dead-man deletion is cancelled (and a deleted canary's last check-in is kept for the dead-man's deadline), armed messages still inside
 * their cancel window are disarmed and their clocks run, and an open death report is refuted and its
 * guardians told. These domains depend on the canary domain; the canary domain reaches them only through
 * this list, which every service context carries (wiring/service-context.ts). In this order, after the
 * batch as well.
 */
export const CHECK_IN_PARTICIPANTS: readonly CheckInParticipant[] = [
  { statements: deadmanCheckInStatements, onCanaryDeleted: foldDeletedCanaryStatements },
  { statements: disarmOnCheckInStatements, after: afterDisarm },
  { statements: refuteOnCheckInStatements, after: (env, results) => afterRefutation({ env }, results) },
];
