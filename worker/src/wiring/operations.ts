import { accountOperations } from '../domains/account/operations';
import { billingOperations } from '../domains/billing/operations';
import { graphOperations } from '../domains/graph/operations';
import { activityOperations } from '../domains/activity/operations';
import { attachmentsOperations, storageOperations } from '../domains/attachments/operations';
import { authOperations } from '../domains/auth/operations';
import { capsuleOperations } from '../domains/capsules/operations';
import { memorialOperations } from '../domains/memorials/operations';
import { moderationOperations } from '../domains/moderation/operations';
import { canaryOperations } from '../domains/canary/operations';
import { deadmanOperations } from '../domains/deadman/operations';
import { developerOperations } from '../domains/developer/operations';
import { e2eeOperations } from '../domains/e2ee/operations';
import { contactsOperations } from '../domains/contacts/operations';
import { guardianOperations } from '../domains/guardian/operations';
import { exportOperations } from '../domains/legal/export/operations';
import { legacyOperations } from '../domains/legacy/operations';
import { legalOperations } from '../domains/legal/operations';
import { consentOperations } from './set-consent';
import { deletionOperations } from './scheduled-deletions';
import { messageOperations } from '../domains/messages/operations';
import { notifyOperations } from '../domains/notify/operations';
import { outboxOperations } from '../domains/outbox/operations';
import { passkeyOperations } from '../domains/passkeys/operations';
import { profileOperations } from '../domains/profile/operations';
import { rehearsalOperations } from '../domains/rehearsal/operations';
import { vaultOperations } from '../domains/vault/operations';
import { chatImportOperations } from '../domains/chat-import/operations';
import { voiceOperations } from '../domains/voice/operations';
import { webhooksOperations } from '../domains/webhooks/operations';
import type { AnyOperation } from '../api/operation';

/**
 * Every declared operation, domain by domain: app.ts mounts their REST routes, openapi/routes/index.ts
 * documents them (and the API-key policy reads that), each domain's trpc.ts builds its procedures.
 */
export const OPERATIONS: readonly AnyOperation[] = [
  ...authOperations,
  ...passkeyOperations,
  ...canaryOperations,
  ...rehearsalOperations,
  ...activityOperations,
  ...deadmanOperations,
  ...legacyOperations,
  ...deletionOperations,
  ...legalOperations,
  ...consentOperations,
  ...exportOperations,
  ...accountOperations,
  ...messageOperations,
  ...attachmentsOperations,
  ...storageOperations,
  ...notifyOperations,
  ...profileOperations,
  ...e2eeOperations,
  ...developerOperations,
  ...webhooksOperations,
  ...guardianOperations,
  ...contactsOperations,
  ...vaultOperations,
  ...voiceOperations,
  ...chatImportOperations,
  ...capsuleOperations,
  ...memorialOperations,
  ...moderationOperations,
  ...billingOperations,
  ...graphOperations,
  ...outboxOperations,
];
