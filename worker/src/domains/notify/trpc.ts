import { ZNotifyPreferences, ZPushEndpoint, ZPushSubscription } from '../../contracts/notify';
import { protectedProcedure, router } from '../../trpc/init';
import { getNotifyPreferences, saveNotifyPreferences } from './preferences';
import { listPushSubscriptionViews, subscribePush, unsubscribePush } from './push-subscriptions';
import { vapidPublicKey } from './vapid-keys';

export const notifyRouter = router({
  preferences: protectedProcedure.query(({ ctx }) => getNotifyPreferences(ctx.services, ctx.principal.user.id)),
  setPreferences: protectedProcedure.input(ZNotifyPreferences).mutation(({ ctx, input }) => saveNotifyPreferences(ctx.services, ctx.principal.user.id, input)),
  vapidKey: protectedProcedure.query(({ ctx }) => vapidPublicKey(ctx.services)),
  pushSubscriptions: protectedProcedure.query(({ ctx }) => listPushSubscriptionViews(ctx.services, ctx.principal.user.id)),
  subscribePush: protectedProcedure.input(ZPushSubscription).mutation(({ ctx, input }) => subscribePush(ctx.services, ctx.principal.user.id, input)),
  unsubscribePush: protectedProcedure.input(ZPushEndpoint).mutation(({ ctx, input }) => unsubscribePush(ctx.services, ctx.principal.user.id, input.endpoint)),
});
