import { ZActivityQuery, ZCanaryId, ZCheckInInput, ZCreateCanaryInput } from '../../contracts/canary';
import { protectedProcedure, publicProcedure, router } from '../../trpc/init';
import { requirePrincipal } from '../../middleware/authenticate';
import { listRecentActivity } from '../activity/list-activity';
import { checkInAll, checkInWithToken } from './check-in';
import { createCanary } from './create-canary';
import { deleteCanary } from './delete-canary';
import { canaryStatus, listCanaries } from './list-canaries';

export const canaryRouter = router({
  create: protectedProcedure.input(ZCreateCanaryInput).mutation(({ ctx, input }) => createCanary(ctx.services, ctx.principal.user, input)),
  list: protectedProcedure.query(({ ctx }) => listCanaries(ctx.services, ctx.principal.user.id)),
  status: protectedProcedure.query(({ ctx }) => canaryStatus(ctx.services, ctx.principal.user.id)),
  delete: protectedProcedure.input(ZCanaryId).mutation(({ ctx, input }) => deleteCanary(ctx.services, ctx.principal.user.id, input.id)),
  checkIn: publicProcedure.input(ZCheckInInput).mutation(({ ctx, input }) =>
    input.token ? checkInWithToken(ctx.services, input.token, 'token') : checkInAll(ctx.services, requirePrincipal(ctx.principal).user.id, 'web'),
  ),
});

export const activityRouter = router({
  recent: protectedProcedure
    .input(ZActivityQuery.optional())
    .query(({ ctx, input }) => listRecentActivity(ctx.services, ctx.principal.user.id, input?.limit ?? 20)),
});
