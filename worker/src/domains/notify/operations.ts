import { z } from 'zod';
import { defineOperation } from '../../api/operation';
import { ZNotifyPreferences, ZPushEndpoint, ZPushSubscription, ZPushSubscriptionView } from '../../contracts/notify';
import { getNotifyPreferences, saveNotifyPreferences } from './preferences';
import { listPushSubscriptionViews, subscribePush, unsubscribePush } from './push-subscriptions';
import { vapidPublicKey } from './vapid-keys';

/** docs/api.md: /api/notify/preferences and the Web Push routes (/api/notify/logs/{id} is a message's: domains/messages/operations.ts). */
const tags = ['Notifications'];
const session = { kind: 'session' } as const;

export const notifyOperations = [
  defineOperation({
    method: 'get',
    path: '/api/notify/preferences',
    trpc: 'preferences',
    access: session,
    input: {},
    output: ZNotifyPreferences,
    docs: {
      operationId: 'getNotifyPreferences',
      summary: 'Notification preferences',
      tags,
      responses: { 200: { description: 'The preferences (defaults for a new account)' } },
    },
    run: ({ services, principal }) => getNotifyPreferences(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/notify/preferences',
    trpc: 'setPreferences',
    access: session,
    input: { body: ZNotifyPreferences },
    output: ZNotifyPreferences,
    docs: {
      operationId: 'saveNotifyPreferences',
      summary: 'Save notification preferences',
      description: "Quiet hours are in the profile's time zone; `start` = `end` means none. `sms` needs a verified phone (422 otherwise).",
      tags,
      responses: { 200: { description: 'The saved preferences' } },
    },
    run: ({ services, principal }, prefs) => saveNotifyPreferences(services, principal.user.id, prefs),
  }),
  defineOperation({
    method: 'get',
    path: '/api/notify/push/key',
    trpc: 'vapidKey',
    access: session,
    input: {},
    output: z.object({ public_key: z.string() }),
    docs: {
      operationId: 'pushPublicKey',
      summary: 'The Web Push (VAPID) public key',
      tags,
      responses: {
        200: { description: 'For `PushManager.subscribe({applicationServerKey})`' },
        501: { description: 'Push is not configured on this server' },
      },
    },
    run: ({ services }) => vapidPublicKey(services),
  }),
  defineOperation({
    method: 'get',
    path: '/api/notify/push/subscriptions',
    trpc: 'pushSubscriptions',
    access: session,
    input: {},
    output: z.array(ZPushSubscriptionView),
    docs: { operationId: 'listPushSubscriptions', summary: "The caller's push subscriptions (devices)", tags, responses: { 200: { description: 'Devices' } } },
    run: ({ services, principal }) => listPushSubscriptionViews(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/notify/push/subscriptions',
    trpc: 'subscribePush',
    access: session,
    input: { body: ZPushSubscription },
    output: z.object({ id: z.string(), endpoint: z.string() }),
    status: 201,
    docs: {
      operationId: 'subscribePush',
      summary: 'Register a push subscription',
      description: "The browser's `PushSubscription.toJSON()`. The oldest devices beyond the per-user limit are dropped.",
      tags,
      responses: { 201: { description: 'Registered' } },
    },
    run: ({ services, principal }, sub) => subscribePush(services, principal.user.id, sub),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/notify/push/subscriptions',
    trpc: 'unsubscribePush',
    access: session,
    input: { body: ZPushEndpoint },
    output: z.object({ removed: z.literal(true) }),
    docs: {
      operationId: 'unsubscribePush',
      summary: 'Remove a push subscription',
      description: 'The endpoint goes in a JSON body.',
      tags,
      responses: { 200: { description: 'Removed' }, 404: { description: 'No such subscription of yours' } },
    },
    run: ({ services, principal }, { endpoint }) => unsubscribePush(services, principal.user.id, endpoint),
  }),
] as const;
