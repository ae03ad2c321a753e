import { ZDeadmanSetupInput } from '../../contracts/canary';
import { protectedProcedure, router } from '../../trpc/init';
import { listScheduledDeletions } from '../legal/list-deletions';
import { getDeadman } from './deadman-view';
import { cancelDeadman, setupDeadman } from './setup-deadman';

export const deadmanRouter = router({
  get: protectedProcedure.query(({ ctx }) => getDeadman(ctx.services, ctx.principal.user.id)),
  setup: protectedProcedure.input(ZDeadmanSetupInput).mutation(({ ctx, input }) => setupDeadman(ctx.services, ctx.principal.user.id, input)),
  cancel: protectedProcedure.mutation(({ ctx }) => cancelDeadman(ctx.services, ctx.principal.user.id)),
});

export const legalRouter = router({
  deletions: protectedProcedure.query(({ ctx }) => listScheduledDeletions(ctx.services, ctx.principal.user.id)),
});
