import { attachmentsRouter } from '../domains/attachments/trpc';
import { authRouter } from '../domains/auth/trpc';
import { activityRouter } from '../domains/activity/trpc';
import { capsuleRouter } from '../domains/capsules/trpc';
import { memorialRouter } from '../domains/memorials/trpc';
import { moderationRouter } from '../domains/moderation/trpc';
import { canaryRouter } from '../domains/canary/trpc';
import { deadmanRouter } from '../domains/deadman/trpc';
import { legacyRouter } from '../domains/legacy/trpc';
import { toProcedures } from '../api/trpc-adapter';
import { legalOperations } from '../domains/legal/operations';
import { consentOperations } from './set-consent';
import { deletionOperations } from './scheduled-deletions';
import { developerKeysRouter } from '../domains/developer/trpc';
import { keysRouter } from '../domains/e2ee/trpc';
import { contactsRouter } from '../domains/contacts/trpc';
import { guardianRouter } from '../domains/guardian/trpc';
import { accountRouter } from '../domains/account/trpc';
import { vaultRouter } from '../domains/vault/trpc';
import { voiceRouter } from '../domains/voice/trpc';
import { chatImportRouter } from '../domains/chat-import/trpc';
import { messageRouter } from '../domains/messages/trpc';
import { notifyRouter } from '../domains/notify/trpc';
import { outboxRouter } from '../domains/outbox/trpc';
import { passkeysRouter } from '../domains/passkeys/trpc';
import { profileRouter } from '../domains/profile/trpc';
import { rehearsalRouter } from '../domains/rehearsal/trpc';
import { webhooksRouter } from '../domains/webhooks/trpc';
import { billingRouter } from '../domains/billing/trpc';
import { graphRouter } from '../domains/graph/trpc';
import { router } from '../trpc/init';

/** The root router only composes; each domain owns its procedures. */
export const appRouter = router({
  auth: authRouter,
  canary: canaryRouter,
  activity: activityRouter,
  deadman: deadmanRouter,
  // The legal domain's procedures, with the consent change and the deletions list composed around it (wiring/).
  legal: router(toProcedures([...deletionOperations, ...legalOperations, ...consentOperations])),
  legacy: legacyRouter,
  message: messageRouter,
  notify: notifyRouter,
  profile: profileRouter,
  outbox: outboxRouter,
  passkeys: passkeysRouter,
  rehearsal: rehearsalRouter,
  keys: keysRouter,
  attachments: attachmentsRouter,
  webhooks: webhooksRouter,
  guardian: guardianRouter,
  contacts: contactsRouter,
  vault: vaultRouter,
  voice: voiceRouter,
  chatImport: chatImportRouter,
  capsule: capsuleRouter,
  memorial: memorialRouter,
  moderation: moderationRouter,
  account: accountRouter,
  billing: billingRouter,
  graph: graphRouter,
  developer: router({ keys: developerKeysRouter }),
});

export type AppRouter = typeof appRouter;
