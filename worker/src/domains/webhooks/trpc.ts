import { ZCreateWebhookInput, ZWebhookAttemptsInput, ZWebhookId } from '../../contracts/webhooks';
import { protectedProcedure, router } from '../../trpc/init';
import { createWebhook, listWebhookAttempts, listWebhooks, removeWebhook, sendTestEvent, webhookSample } from './webhooks';

/** The same services as /api/developer/webhooks. */
export const webhooksRouter = router({
  list: protectedProcedure.query(({ ctx }) => listWebhooks(ctx.services, ctx.principal.user.id)),
  create: protectedProcedure.input(ZCreateWebhookInput).mutation(({ ctx, input }) => createWebhook(ctx.services, ctx.principal, input)),
  remove: protectedProcedure.input(ZWebhookId).mutation(({ ctx, input }) => removeWebhook(ctx.services, ctx.principal.user.id, input.id)),
  test: protectedProcedure.input(ZWebhookId).mutation(({ ctx, input }) => sendTestEvent(ctx.services, ctx.principal.user.id, input.id)),
  attempts: protectedProcedure.input(ZWebhookAttemptsInput).query(({ ctx, input }) => listWebhookAttempts(ctx.services, ctx.principal.user.id, input.id, input.limit)),
  sample: protectedProcedure.query(({ ctx }) => webhookSample(ctx.services, ctx.principal.user.id)),
});
