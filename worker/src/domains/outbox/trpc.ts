import { ZOutboxQuery } from '../../contracts/notify';
import { protectedProcedure, publicProcedure, router } from '../../trpc/init';
import { outboxEnabled, readEveryOutbox, readOutbox } from './outbox-access';

export const outboxRouter = router({
  status: publicProcedure.query(({ ctx }) => ({ enabled: outboxEnabled(ctx.services.env) })),
  /** The caller's own local mailbox. */
  list: protectedProcedure
    .input(ZOutboxQuery.optional())
    .query(({ ctx, input }) => readOutbox(ctx.services, ctx.principal.user.id, input?.limit, '/api/trpc/outbox.list')),
  /** Every account's rows: NOT_FOUND unless OUTBOX_OPERATOR_VIEW is "true" outside production. */
  listAll: protectedProcedure
    .input(ZOutboxQuery.optional())
    .query(({ ctx, input }) => readEveryOutbox(ctx.services, input?.limit, '/api/trpc/outbox.listAll')),
});
