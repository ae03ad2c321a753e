import { ZOutboxQuery } from '../../contracts/notify';
import { protectedProcedure, publicProcedure, router } from '../../trpc/init';
import { outboxEnabled, readOutbox } from './outbox-access';

export const outboxRouter = router({
  status: publicProcedure.query(({ ctx }) => ({ enabled: outboxEnabled(ctx.services.env) })),
  list: protectedProcedure.input(ZOutboxQuery.optional()).query(({ ctx, input }) => readOutbox(ctx.services, input?.limit, '/api/trpc/outbox.list')),
});
