import { CHAT_IMPORT_FORMATS, CHAT_IMPORT_STATUSES } from '@afterword/db/enums';
import { z } from 'zod';

/**
 * Chat-history import (POST /imports/chat-history in docs/api.md;
 * docs/server-rules.md "Voice, persona and chat import"; docs/decisions/chat-import.md): a messenger's JSON
 * export becomes persona material.
 */

/** The file: JSON only (docs/product.md "Voice, persona and chat import"), up to 20 MiB. */
export const CHAT_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const CHAT_IMPORT_MAX_BODY_BYTES = CHAT_IMPORT_MAX_BYTES + 64 * 1024;
/** The most lines one import keeps (the latest ones): persona material, not an archive of the chat. */
export const CHAT_IMPORT_MAX_LINES = 20_000;
/** A line longer than this is cut there; the line it answered is cut at the prompt's limit. */
export const CHAT_LINE_MAX_CHARS = 2000;
export const CHAT_PROMPT_MAX_CHARS = 500;
export const CHAT_SENDER_MAX_CHARS = 200;

export { CHAT_IMPORT_FORMATS, CHAT_IMPORT_STATUSES };

/** What a 422 names when the file is none of the formats: the same words on the page and in the API. */
export const CHAT_IMPORT_ACCEPTED =
  'Telegram Desktop (result.json), Facebook or Instagram (message_1.json), DiscordChatExporter (JSON), or a plain list of {sender, text, timestamp}';

export const ZChatImportSender = z.object({ name: z.string(), count: z.number().int() });

export const ZChatImport = z.object({
  /** The import's id: the job the page polls (the page shows 'queued: {job_id}'). */
  job_id: z.string(),
  status: z.enum(CHAT_IMPORT_STATUSES),
  format: z.enum(CHAT_IMPORT_FORMATS),
  file_name: z.string(),
  size: z.number().int(),
  /** Who wrote in the chat, with how many messages each, once the job has read it. */
  senders: z.array(ZChatImportSender).nullable(),
  /** The sender the owner said is them. */
  self_sender: z.string().nullable(),
  message_count: z.number().int().nullable(),
  /** The owner's own lines kept as persona material. */
  line_count: z.number().int().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type TChatImport = z.infer<typeof ZChatImport>;

const sender = z
  .string()
  .trim()
  .min(1, { message: 'sender must name one of the chat’s senders' })
  .max(CHAT_SENDER_MAX_CHARS, { message: `sender must be at most ${CHAT_SENDER_MAX_CHARS} characters` });

/** The upload's text fields: `sender` (optional) says which of the chat's senders is the owner. */
export const ZChatImportFields = z.object({
  sender: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(sender.optional()),
});
export type TChatImportFields = z.infer<typeof ZChatImportFields>;

/**
 * POST /api/imports/chat-history/{id}/sender: the owner picks themselves among the senders found. The
 * operation's body is loose so that another person's import is a 404 whatever the body (the walk test's
 * rule); the service checks it with ZChatImportSender after finding the import.
 */
export const ZChatImportSenderInput = z.object({ sender: z.unknown().optional().describe('one of the import’s senders') });
export const ZChatImportSenderChoice = z.object({ sender });
