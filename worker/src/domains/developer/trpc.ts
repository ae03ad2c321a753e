import { ZApiKeyId, ZCreateApiKeyInput } from '../../contracts/developer';
import { requireSession } from '../../middleware/authenticate';
import { protectedProcedure, router } from '../../trpc/init';
import { createApiKey, listApiKeys, revokeApiKey } from './manage-keys';

/** `developer.keys.*` (the web app's Developer page). tRPC is session-only: a key never gets here. */
export const developerKeysRouter = router({
  list: protectedProcedure.query(({ ctx }) => listApiKeys(ctx.services, requireSession(ctx.principal).user.id)),
  create: protectedProcedure.input(ZCreateApiKeyInput).mutation(({ ctx, input }) => createApiKey(ctx.services, requireSession(ctx.principal).user.id, input)),
  revoke: protectedProcedure.input(ZApiKeyId).mutation(({ ctx, input }) => revokeApiKey(ctx.services, requireSession(ctx.principal).user.id, input.id)),
});
