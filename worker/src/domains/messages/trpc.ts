import { z } from 'zod';
import { MESSAGE_FILTERS, ZCreateMessageInput, ZMessageId } from '../../contracts/messages';
import { protectedProcedure, router } from '../../trpc/init';
import { createMessage } from './create-message';
import { getDeliveryLog, getMessageDetail, inboxMessages, listMessages, pendingMessages } from './read-messages';
import { cancelMessage, deliverNow } from './sender-actions';

export const messageRouter = router({
  create: protectedProcedure.input(ZCreateMessageInput).mutation(({ ctx, input }) => createMessage(ctx.services, ctx.principal.user, input)),
  list: protectedProcedure
    .input(z.object({ filter: z.enum(MESSAGE_FILTERS).default('all') }).optional())
    .query(({ ctx, input }) => listMessages(ctx.services, ctx.principal.user.id, input?.filter ?? 'all')),
  pending: protectedProcedure.query(({ ctx }) => pendingMessages(ctx.services, ctx.principal.user.id)),
  inbox: protectedProcedure.query(({ ctx }) => inboxMessages(ctx.services, ctx.principal.user.id)),
  byId: protectedProcedure.input(ZMessageId).query(({ ctx, input }) => getMessageDetail(ctx.services, ctx.principal.user.id, input.id.toLowerCase())),
  logs: protectedProcedure.input(ZMessageId).query(({ ctx, input }) => getDeliveryLog(ctx.services, ctx.principal.user.id, input.id.toLowerCase())),
  deliver: protectedProcedure.input(ZMessageId).mutation(({ ctx, input }) => deliverNow(ctx.services, ctx.principal.user.id, input.id.toLowerCase())),
  cancel: protectedProcedure.input(ZMessageId).mutation(({ ctx, input }) => cancelMessage(ctx.services, ctx.principal.user.id, input.id.toLowerCase())),
});
