import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import { CHAT_IMPORT_ACCEPTED, CHAT_IMPORT_MAX_BODY_BYTES, ZChatImport, ZChatImportFields, ZChatImportSenderInput } from '../../contracts/chat-import';
import { parseOrThrow } from '../../lib/validation';
import { singleFilePart, textField } from '../../lib/multipart';
import { chatImportNotFound, chooseChatSender, deleteChatImport, getChatImport, listChatImports, startChatImport } from './imports';

/**
 * Chat-history import (POST /imports/chat-history in docs/api.md;
 * docs/decisions/chat-import.md). The upload is multipart: REST only; tRPC has the rest.
 */
const tags = ['Persona'];
const notYours = { description: 'Chat import not found (or not yours)' };

async function readUpload(form: FormData) {
  const file = await singleFilePart(form, 'send one chat export per upload');
  const fields = parseOrThrow(ZChatImportFields, { sender: textField(form, 'sender') }, 'body');
  return { fields, file };
}

export const chatImportOperations = [
  defineOperation({
    method: 'post',
    path: '/api/imports/chat-history',
    trpc: false,
    access: { kind: 'session' },
    input: {
      multipart: {
        schema: ZChatImportFields.extend({ file: z.file().describe('The chat export: JSON') }),
        maxBytes: CHAT_IMPORT_MAX_BODY_BYTES,
        read: readUpload,
      },
    },
    output: ZChatImport,
    status: 202,
    docs: {
      operationId: 'importChatHistory',
      summary: 'Import a chat history',
      description:
        `Multipart: \`file\` (JSON, up to 20 MiB) and \`sender?\` (which of the chat's senders is you). Accepted: ${CHAT_IMPORT_ACCEPTED}. ` +
        'The file is recognised at once; a queued job then keeps your own lines (each with the line it answered) as persona material and deletes the file. ' +
        'Poll GET /api/imports/chat-history/{id} with the returned `job_id`: `queued`, `processing`, `needs_sender` (say who you are: POST …/sender), `complete` or `failed`.',
      tags,
      responses: {
        202: { description: 'Queued: `job_id` names the import' },
        403: { description: 'The voice consent is withdrawn' },
        413: { description: 'Over 20 MiB' },
        422: { description: 'Not JSON, none of the accepted formats, no message with text, or a `sender` who did not write in the chat' },
      },
    },
    run: ({ services, principal }, { fields, file }) => startChatImport(services, principal.user, fields, file),
  }),
  defineOperation({
    method: 'get',
    path: '/api/imports/chat-history',
    trpc: 'list',
    access: { kind: 'session' },
    input: {},
    output: z.array(ZChatImport),
    docs: {
      operationId: 'listChatImports',
      summary: 'Your chat imports',
      description: 'Newest first, each with its status and counts.',
      tags,
      responses: { 200: { description: 'Imports' } },
    },
    run: ({ services, principal }) => listChatImports(services, principal.user.id),
  }),
  defineOperation({
    method: 'get',
    path: '/api/imports/chat-history/{id}',
    trpc: 'get',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: ZChatImport,
    notFound: chatImportNotFound,
    docs: {
      operationId: 'getChatImport',
      summary: 'One chat import (its job)',
      description: 'Its status; once read, the senders found with their counts; once complete, how many of your lines were kept.',
      tags,
      responses: { 200: { description: 'The import' }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => getChatImport(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/imports/chat-history/{id}/sender',
    trpc: 'chooseSender',
    access: { kind: 'session' },
    input: { params: ZIdParam, body: ZChatImportSenderInput },
    output: ZChatImport,
    status: 202,
    notFound: chatImportNotFound,
    docs: {
      operationId: 'chooseChatImportSender',
      summary: 'Say which sender is you',
      description: '`{sender}`: one of the senders the import found. The job runs again and keeps that sender’s lines.',
      tags,
      responses: {
        202: { description: 'Queued again' },
        404: notYours,
        409: { description: 'The import is not waiting for a sender' },
        422: { description: 'No such sender in this chat' },
      },
    },
    run: ({ services, principal }, { id, sender }) => chooseChatSender(services, principal.user.id, id, { sender }),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/imports/chat-history/{id}',
    trpc: 'delete',
    access: { kind: 'session' },
    input: { params: ZIdParam },
    output: z.object({ ok: z.literal(true) }),
    notFound: chatImportNotFound,
    docs: {
      operationId: 'deleteChatImport',
      summary: 'Delete a chat import',
      description: 'The import and every line it kept; the persona no longer answers from them.',
      tags,
      responses: { 200: { description: 'Deleted' }, 404: notYours },
    },
    run: async ({ services, principal }, { id }) => {
      await deleteChatImport(services, principal.user.id, id);
      return { ok: true as const };
    },
  }),
] as const;
