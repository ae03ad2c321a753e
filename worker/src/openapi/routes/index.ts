import type { RouteDoc } from '../../api/route-doc';
import { routes as googleSignIn } from './auth';
import { routes as pingWithGet } from './canary';
import { routes as health } from './health';
import { routeDocsOf } from '../../api/route-docs';
import { activityOperations } from '../../domains/activity/operations';
import { attachmentsOperations, storageOperations } from '../../domains/attachments/operations';
import { authOperations } from '../../domains/auth/operations';
import { capsuleOperations } from '../../domains/capsules/operations';
import { memorialOperations } from '../../domains/memorials/operations';
import { moderationOperations } from '../../domains/moderation/operations';
import { canaryOperations } from '../../domains/canary/operations';
import { deadmanOperations } from '../../domains/deadman/operations';
import { developerOperations } from '../../domains/developer/operations';
import { e2eeOperations } from '../../domains/e2ee/operations';
import { contactsOperations } from '../../domains/contacts/operations';
import { guardianOperations } from '../../domains/guardian/operations';
import { vaultOperations } from '../../domains/vault/operations';
import { chatImportOperations } from '../../domains/chat-import/operations';
import { voiceOperations } from '../../domains/voice/operations';
import { accountOperations } from '../../domains/account/operations';
import { exportOperations } from '../../domains/legal/export/operations';
import { legacyOperations } from '../../domains/legacy/operations';
import { legalOperations } from '../../domains/legal/operations';
import { consentOperations } from '../../wiring/set-consent';
import { deletionOperations } from '../../wiring/scheduled-deletions';
import { messageOperations } from '../../domains/messages/operations';
import { notifyOperations } from '../../domains/notify/operations';
import { outboxOperations } from '../../domains/outbox/operations';
import { passkeyOperations } from '../../domains/passkeys/operations';
import { profileOperations } from '../../domains/profile/operations';
import { rehearsalOperations } from '../../domains/rehearsal/operations';
import { webhooksOperations } from '../../domains/webhooks/operations';
import { routes as reference } from './reference';
import { routes as billingWebhook } from './billing';
import { billingOperations } from '../../domains/billing/operations';
import { graphOperations } from '../../domains/graph/operations';

/**
 * Every documented REST route: the declared operations of each area (their RouteDocs come from the
 * declarations, worker/src/api/route-docs.ts) and the few plain routes (Google sign-in's redirects, the
 * ping's 405, health and the reference). The order is the order of the document (and of the
 * reference's sidebar). worker/test/openapi-contract.test.ts checks this list against the routes
 * createApp() serves, both ways; the API-key policy reads it.
 */
export const ROUTE_DOCS: RouteDoc[] = [
  ...routeDocsOf(authOperations),
  ...googleSignIn,
  ...routeDocsOf(passkeyOperations),
  ...routeDocsOf(canaryOperations),
  ...routeDocsOf(rehearsalOperations),
  ...pingWithGet,
  ...routeDocsOf(activityOperations),
  ...routeDocsOf(deadmanOperations),
  ...routeDocsOf([...deletionOperations, ...legalOperations, ...consentOperations]),
  ...routeDocsOf(legacyOperations),
  ...routeDocsOf(exportOperations),
  ...routeDocsOf(accountOperations),
  ...routeDocsOf(messageOperations),
  ...routeDocsOf(attachmentsOperations),
  ...routeDocsOf(notifyOperations),
  ...routeDocsOf([...profileOperations, ...storageOperations]),
  ...routeDocsOf(e2eeOperations),
  ...routeDocsOf(developerOperations),
  ...routeDocsOf(webhooksOperations),
  ...routeDocsOf(guardianOperations),
  ...routeDocsOf(contactsOperations),
  ...routeDocsOf(vaultOperations),
  ...routeDocsOf(voiceOperations),
  ...routeDocsOf(chatImportOperations),
  ...routeDocsOf(capsuleOperations),
  ...routeDocsOf(memorialOperations),
  ...routeDocsOf(moderationOperations),
  ...routeDocsOf(billingOperations),
  ...billingWebhook,
  ...routeDocsOf(graphOperations),
  ...routeDocsOf(outboxOperations),
  ...health,
  ...reference,
];
