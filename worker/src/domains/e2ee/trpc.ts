import { ZKeysOfUser } from '../../contracts/auth';
import { ZKeyBundle } from '../../contracts/e2ee';
import { protectedProcedure, router } from '../../trpc/init';
import { createKeys, getOwnKeys, getPublicKey } from './key-bundles';

export const keysRouter = router({
  me: protectedProcedure.query(({ ctx }) => getOwnKeys(ctx.services, ctx.principal.user.id)),
  create: protectedProcedure.input(ZKeyBundle).mutation(({ ctx, input }) => createKeys(ctx.services, ctx.principal.user.id, input)),
  forUser: protectedProcedure.input(ZKeysOfUser).query(({ ctx, input }) => getPublicKey(ctx.services, input.user_id)),
});
