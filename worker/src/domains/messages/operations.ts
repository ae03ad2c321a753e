import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  MESSAGE_CREATE_MAX_BODY_BYTES,
  MESSAGE_FILTERS,
  ZCreateMessageInput,
  ZDeliveryLogEntry,
  ZMessageDetail,
  ZMessageView,
  ZReceivedMessage,
  ZUnreadCount,
} from '../../contracts/messages';
import { createMessage } from './create-message';
import { getDeliveryLog, getMessageAudio, getMessageDetail, listMessages, messageNotFound, pendingMessages } from './read-messages';
import { inboxMessages, markMessageRead, unreadCount } from './received-messages';
import { cancelMessage, deliverNow } from './sender-actions';

/**
 * docs/api.md: /api/message/* and /api/messages/deliver/{id}, plus the lookups My Messages, the view page and
 * the inbox need.
 */
const tags = ['Messages'];
const notYours = { description: 'Message not found (or not yours, or not yet released to you)' };
const readMessages = { kind: 'session-or-key', scope: 'read:messages' } as const;
const messages = z.array(ZMessageView);

export const messageOperations = [
  defineOperation({
    method: 'post',
    path: '/api/message/create',
    trpc: 'create',
    access: { kind: 'session' },
    input: { body: ZCreateMessageInput, maxBytes: MESSAGE_CREATE_MAX_BODY_BYTES },
    output: ZMessageView,
    status: 201,
    docs: {
      operationId: 'createMessage',
      summary: 'Prepare a message',
      description:
        'Released to `recipient_user_id` when its rules fire (missed check-ins, a fixed date, a delay after death) or at `deliver_at`. `audio_base64` carries a recording inline (audio/webm or audio/ogg, at most 10 MB; this call alone accepts a body of about 14 MB). With `use_e2ee`, `content` must be empty and `content_encrypted` holds the sealed v1 envelope, which needs a key for the recipient (see docs/api.md). Send an `idempotency_key` (a UUID per message) to make the call safe to send again: a repeat answers with the message the first call wrote.',
      tags,
      responses: {
        201: { description: 'The message' },
        403: {
          description: "Your messages consent is withdrawn (allow it again: POST /api/legal/consent/messages), or the recording passes the plan's storage",
        },
        404: { description: 'Recipient not found: no user has this id' },
        409: { description: '`idempotency_key` was already used for a message with a different input' },
        413: { description: 'The recording (or the body) is too large' },
      },
    },
    run: ({ services, principal }, input) => createMessage(services, principal.user, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/pending',
    trpc: 'pending',
    access: readMessages,
    input: {},
    output: messages,
    docs: {
      operationId: 'pendingMessages',
      summary: 'Unreleased messages',
      description: "The caller's messages that have not been released yet.",
      tags,
      responses: { 200: { description: 'Messages' } },
    },
    run: ({ services, principal }) => pendingMessages(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/list',
    trpc: 'list',
    access: readMessages,
    // Lenient on purpose: an unknown filter reads as `all` (old links keep working).
    input: { query: z.object({ filter: z.enum(MESSAGE_FILTERS).default('all').catch('all') }) },
    output: messages,
    docs: {
      operationId: 'listMessages',
      summary: 'My messages',
      description: 'Newest first. An unknown `filter` reads as `all`.',
      tags,
      responses: { 200: { description: 'Messages' } },
    },
    run: ({ services, principal }, { filter }) => listMessages(services, principal.user.id, filter),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/sent',
    trpc: 'sent',
    access: readMessages,
    input: {},
    output: messages,
    docs: {
      operationId: 'sentMessages',
      summary: 'Released messages',
      description: "The caller's messages that have been released.",
      tags,
      responses: { 200: { description: 'Messages' } },
    },
    run: ({ services, principal }) => listMessages(services, principal.user.id, 'sent'),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/inbox',
    trpc: 'inbox',
    access: readMessages,
    input: {},
    output: z.array(ZReceivedMessage),
    docs: {
      operationId: 'inbox',
      summary: 'Inbox',
      description:
        "Released messages addressed to the caller, newest release first: who sent each, when and why it was released, its content and whether it was opened (`read_at`). None of the sender's rules, channel or delivery log.",
      tags,
      responses: { 200: { description: 'Received messages' } },
    },
    run: ({ services, principal }) => inboxMessages(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/unread-count',
    trpc: 'unreadCount',
    access: readMessages,
    input: {},
    output: ZUnreadCount,
    docs: {
      operationId: 'inboxUnreadCount',
      summary: 'Unread messages in the Inbox',
      description: 'How many released messages addressed to the caller they have not opened yet.',
      tags,
      responses: { 200: { description: 'The count' } },
    },
    run: ({ services, principal }) => unreadCount(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/message/{id}/read',
    trpc: 'markRead',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: ZReceivedMessage,
    notFound: messageNotFound,
    docs: {
      operationId: 'markMessageRead',
      summary: 'Mark a received message as read',
      description: 'The recipient opened it: `read_at` is set the first time and kept after. Only for its recipient, once released.',
      tags,
      responses: { 200: { description: 'The received message' }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => markMessageRead(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/{id}',
    trpc: 'byId',
    access: readMessages,
    input: { params: ZIdParam },
    output: ZMessageDetail,
    notFound: messageNotFound,
    docs: {
      operationId: 'getMessage',
      summary: 'One message with its history',
      description:
        'For its sender (`role: sender`): the message, its state history and delivery log. For its recipient once released (`role: recipient`): their copy only, as in the Inbox, with no history or log.',
      tags,
      responses: { 200: { description: "The sender's record, or the recipient's copy" }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => getMessageDetail(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'get',
    // The path is the published one (under /api/notify, docs/api.md); the operation is the message's.
    path: '/api/notify/logs/{id}',
    trpc: 'logs',
    access: { kind: 'session-or-key', scope: 'read:messages' },
    input: { params: ZIdParam },
    output: z.array(ZDeliveryLogEntry),
    notFound: messageNotFound,
    docs: {
      operationId: 'messageDeliveryLog',
      summary: "A message's delivery log",
      description: 'Every delivery attempt, oldest first: for the sender only (the recipient sees their copy in the Inbox, not how it travelled).',
      tags,
      responses: { 200: { description: 'Attempts' }, 404: { description: 'Message not found (or not yours)' } },
    },
    run: ({ services, principal }, { id }) => getDeliveryLog(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/message/{id}/audio',
    trpc: false,
    access: { kind: 'session' },
    input: { params: ZIdParam },
    notFound: messageNotFound,
    docs: {
      operationId: 'getMessageAudio',
      summary: "A message's recording",
      description: 'The stored bytes with their media type (ciphertext, `application/octet-stream`, for an end-to-end encrypted message).',
      tags,
      contentType: ['audio/*', 'application/octet-stream'],
      responses: {
        200: { description: 'The recording: audio/webm or audio/ogg (application/octet-stream when end-to-end encrypted)' },
        404: { description: 'Message not found (or not yours), or it has no recording' },
      },
    },
    run: async ({ services, principal }, { id }) => {
      const object = await getMessageAudio(services, principal.user.id, id);
      return new Response(object.body, {
        headers: {
          'Content-Type': object.httpMetadata?.contentType ?? 'application/octet-stream',
          'Content-Length': String(object.size),
          'Cache-Control': 'private, no-store',
        },
      });
    },
  }),
  defineOperation({
    method: 'post',
    path: '/api/message/{id}/cancel',
    trpc: 'cancel',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: ZMessageView,
    notFound: messageNotFound,
    docs: {
      operationId: 'cancelMessage',
      summary: 'Withdraw a message',
      description: 'The sender withdraws a scheduled or armed message: it becomes `cancelled`.',
      tags,
      responses: { 200: { description: 'Cancelled' }, 404: notYours, 409: { description: 'Already released or cancelled' } },
    },
    run: ({ services, principal }, { id }) => cancelMessage(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/messages/deliver/{id}',
    trpc: 'deliver',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: ZMessageView,
    notFound: messageNotFound,
    docs: {
      operationId: 'deliverMessage',
      summary: 'Release a message now',
      tags,
      responses: {
        200: { description: 'Released' },
        403: { description: 'Your messages consent is withdrawn: releases are paused' },
        404: notYours,
        409: { description: 'Already released or cancelled' },
      },
    },
    run: ({ services, principal }, { id }) => deliverNow(services, principal.user.id, id),
  }),
] as const;
