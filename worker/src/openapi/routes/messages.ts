import { z } from 'zod';
import { MESSAGE_FILTERS, ZCreateMessageInput, ZMessageId } from '../../contracts/messages';
import type { RouteDoc } from '../route-doc';
import { ZMessageDetail, ZMessageView } from '../schemas';

const tags = ['Messages'];
const notYours = { description: 'Message not found (or not yours, or not yet released to you)' };

/** /api/message/* and /api/messages/deliver/{id} (domains/messages/rest.ts). */
export const routes: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/message/create',
    operationId: 'createMessage',
    summary: 'Prepare a message',
    description:
      'Released to `recipient_user_id` when its rules fire (missed check-ins, a fixed date, a delay after death) or at `deliver_at`. `audio_base64` carries a recording inline (audio/webm or audio/ogg, at most 10 MB; this call alone accepts a body of about 14 MB). With `use_e2ee`, `content` must be empty and `content_encrypted` holds the sealed v1 envelope, which needs a key for the recipient (see docs/api.md).',
    tags,
    auth: 'session',
    request: { body: ZCreateMessageInput },
    responses: {
      201: { description: 'The message', schema: ZMessageView },
      404: { description: 'Recipient not found: no user has this id' },
      413: { description: 'The recording (or the body) is too large' },
    },
  },
  {
    method: 'get',
    path: '/api/message/pending',
    operationId: 'pendingMessages',
    summary: 'Unreleased messages',
    description: "The caller's messages that have not been released yet.",
    tags,
    auth: 'session-or-key',
    scope: 'read:messages',
    responses: { 200: { description: 'Messages', schema: z.array(ZMessageView) } },
  },
  {
    method: 'get',
    path: '/api/message/list',
    operationId: 'listMessages',
    summary: 'My messages',
    description: 'Newest first. An unknown `filter` reads as `all`.',
    tags,
    auth: 'session-or-key',
    scope: 'read:messages',
    request: { query: z.object({ filter: z.enum(MESSAGE_FILTERS).default('all') }) },
    responses: { 200: { description: 'Messages', schema: z.array(ZMessageView) } },
  },
  {
    method: 'get',
    path: '/api/message/sent',
    operationId: 'sentMessages',
    summary: 'Released messages',
    description: "The caller's messages that have been released.",
    tags,
    auth: 'session-or-key',
    scope: 'read:messages',
    responses: { 200: { description: 'Messages', schema: z.array(ZMessageView) } },
  },
  {
    method: 'get',
    path: '/api/message/inbox',
    operationId: 'inbox',
    summary: 'Inbox',
    description: 'Released messages addressed to the caller, with `sender_email`, `sender_name` and `released_at`.',
    tags,
    auth: 'session-or-key',
    scope: 'read:messages',
    responses: { 200: { description: 'Messages', schema: z.array(ZMessageView) } },
  },
  {
    method: 'get',
    path: '/api/message/{id}',
    operationId: 'getMessage',
    summary: 'One message with its history',
    description: 'For the sender, or the recipient after release (who sees no rules and only the release transitions).',
    tags,
    auth: 'session-or-key',
    scope: 'read:messages',
    request: { params: ZMessageId },
    responses: { 200: { description: 'The message, its transitions and delivery log', schema: ZMessageDetail }, 404: notYours },
  },
  {
    method: 'get',
    path: '/api/message/{id}/audio',
    operationId: 'getMessageAudio',
    summary: "A message's recording",
    description: 'The stored bytes with their media type (ciphertext, `application/octet-stream`, for an end-to-end encrypted message).',
    tags,
    auth: 'session',
    request: { params: ZMessageId },
    responses: {
      200: { description: 'The recording: audio/webm or audio/ogg (application/octet-stream when end-to-end encrypted)', contentType: 'audio/*' },
      404: { description: 'Message not found (or not yours), or it has no recording' },
    },
  },
  {
    method: 'post',
    path: '/api/message/{id}/cancel',
    operationId: 'cancelMessage',
    summary: 'Withdraw a message',
    description: 'The sender withdraws a scheduled or armed message: it becomes `cancelled`.',
    tags,
    auth: 'session',
    request: { params: ZMessageId },
    responses: { 200: { description: 'Cancelled', schema: ZMessageView }, 404: notYours, 409: { description: 'Already released or cancelled' } },
  },
  {
    method: 'post',
    path: '/api/messages/deliver/{id}',
    operationId: 'deliverMessage',
    summary: 'Release a message now',
    tags,
    auth: 'session',
    request: { params: ZMessageId },
    responses: { 200: { description: 'Released', schema: ZMessageView }, 404: notYours, 409: { description: 'Already released or cancelled' } },
  },
];
