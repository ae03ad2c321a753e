import { activityOperations } from '../domains/activity/operations';
import { authOperations } from '../domains/auth/operations';
import { canaryOperations } from '../domains/canary/operations';
import { deadmanOperations } from '../domains/deadman/operations';
import { legalOperations } from '../domains/legal/operations';
import { messageOperations } from '../domains/messages/operations';
import { outboxOperations } from '../domains/outbox/operations';
import type { AnyOperation } from './operation';

/**
 * Every declared operation, domain by domain: app.ts mounts their REST routes, openapi/routes/index.ts
 * documents them (and the API-key policy reads that), each domain's trpc.ts builds its procedures.
 */
export const OPERATIONS: readonly AnyOperation[] = [
  ...messageOperations,
  ...authOperations,
  ...canaryOperations,
  ...activityOperations,
  ...deadmanOperations,
  ...legalOperations,
  ...outboxOperations,
];
