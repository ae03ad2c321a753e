import { z } from 'zod';
import { ZMessageId } from '../../contracts/messages';
import { ZNotifyPreferences, ZPushEndpoint, ZPushSubscription } from '../../contracts/notify';
import type { RouteDoc } from '../route-doc';
import { ZDeliveryLogEntry, ZPushSubscriptionView } from '../schemas';

const tags = ['Notifications'];

/** /api/notify/*: preferences, delivery logs and Web Push subscriptions (domains/notify/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/notify/preferences',
    operationId: 'getNotifyPreferences',
    summary: 'Notification preferences',
    tags,
    auth: 'session',
    responses: { 200: { description: 'The preferences (defaults for a new account)', schema: ZNotifyPreferences } },
  },
  {
    method: 'post',
    path: '/api/notify/preferences',
    operationId: 'saveNotifyPreferences',
    summary: 'Save notification preferences',
    description: 'Quiet hours are in the profile\'s time zone; `start` = `end` means none. `sms` needs a verified phone (422 otherwise).',
    tags,
    auth: 'session',
    request: { body: ZNotifyPreferences },
    responses: { 200: { description: 'The saved preferences', schema: ZNotifyPreferences } },
  },
  {
    method: 'get',
    path: '/api/notify/logs/{id}',
    operationId: 'messageDeliveryLog',
    summary: "A message's delivery log",
    description: 'Every delivery attempt, oldest first: for the sender, and for the recipient of a released message (their copy).',
    tags: ['Messages'],
    auth: 'session-or-key',
    scope: 'read:messages',
    request: { params: ZMessageId },
    responses: {
      200: { description: 'Attempts', schema: z.array(ZDeliveryLogEntry) },
      404: { description: 'Message not found (or not yours, or not yet released to you)' },
    },
  },
  {
    method: 'get',
    path: '/api/notify/push/key',
    operationId: 'pushPublicKey',
    summary: 'The Web Push (VAPID) public key',
    tags,
    auth: 'session',
    responses: {
      200: { description: 'For `PushManager.subscribe({applicationServerKey})`', schema: z.object({ public_key: z.string() }) },
      501: { description: 'Push is not configured on this server' },
    },
  },
  {
    method: 'get',
    path: '/api/notify/push/subscriptions',
    operationId: 'listPushSubscriptions',
    summary: "The caller's push subscriptions (devices)",
    tags,
    auth: 'session',
    responses: { 200: { description: 'Devices', schema: z.array(ZPushSubscriptionView) } },
  },
  {
    method: 'post',
    path: '/api/notify/push/subscriptions',
    operationId: 'subscribePush',
    summary: 'Register a push subscription',
    description: "The browser's `PushSubscription.toJSON()`. The oldest devices beyond the per-user limit are dropped.",
    tags,
    auth: 'session',
    request: { body: ZPushSubscription },
    responses: { 201: { description: 'Registered', schema: z.object({ id: z.string(), endpoint: z.string() }) } },
  },
  {
    method: 'delete',
    path: '/api/notify/push/subscriptions',
    operationId: 'unsubscribePush',
    summary: 'Remove a push subscription',
    description: 'The endpoint goes in a JSON body.',
    tags,
    auth: 'session',
    request: { body: ZPushEndpoint },
    responses: {
      200: { description: 'Removed', schema: z.object({ removed: z.literal(true) }) },
      404: { description: 'No such subscription of yours' },
    },
  },
];
