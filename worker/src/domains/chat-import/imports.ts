import type { User } from '@afterword/db/schema';
import { CHAT_IMPORT_MAX_BYTES, type TChatImport, type TChatImportFields, ZChatImportSenderChoice } from '../../contracts/chat-import';
import { parseOrThrow } from '../../lib/validation';
import { cleanFileName, formatBytes } from '../../contracts/attachments';
import type { ChatImportJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { AppError, bodyFieldError } from '../../lib/errors';
import { log } from '../../lib/logger';
import { consentWithdrawn, requireConsent } from '../legal/consent-state';
import { parseJsonFile, readChatExport } from './formats';
import { countSenders } from './own-lines';

/*
 * Chat-history import (POST /imports/chat-history; docs/decisions/chat-import.md). The
 * upload is read at once, so a file that is not one of the formats is refused with 422 before anything
 * is kept; the lines are stored by a queued job (runChatImport), which the page polls.
 */

export const chatImportKey = (ownerId: string, id: string) => `imports/${ownerId}/${id}.json`;
export const chatImportNotFound = () => new AppError('NOT_FOUND', 'Chat import not found');

export interface ImportRow {
  id: string;
  owner_id: string;
  status: TChatImport['status'];
  format: TChatImport['format'];
  file_name: string;
  size: number;
  r2_key: string | null;
  self_sender: string | null;
  senders: string | null;
  message_count: number | null;
  line_count: number | null;
  error: string | null;
  created_at: number;
  completed_at: number | null;
}

export const importRow = (ctx: ServiceContext, ownerId: string, id: string) =>
  ctx.env.DB.prepare('SELECT * FROM chat_imports WHERE id = ?1 AND owner_id = ?2').bind(id, ownerId).first<ImportRow>();

export const toView = (r: ImportRow): TChatImport => ({
  job_id: r.id,
  status: r.status,
  format: r.format,
  file_name: r.file_name,
  size: r.size,
  senders: r.senders ? JSON.parse(r.senders) : null,
  self_sender: r.self_sender,
  message_count: r.message_count,
  line_count: r.line_count,
  error: r.error,
  created_at: new Date(r.created_at).toISOString(),
  completed_at: r.completed_at == null ? null : new Date(r.completed_at).toISOString(),
});

/** A sender the chat does not have: 422 naming the ones it does (the busiest ten). */
export function unknownSender(sender: string, senders: { name: string }[]) {
  const names = senders.slice(0, 10).map((s) => `“${s.name}”`);
  return bodyFieldError('sender', `“${sender}” did not write in this chat. Its senders: ${names.join(', ')}${senders.length > 10 ? ', …' : ''}.`, 'sender');
}

/**
 * POST /api/imports/chat-history: refused before anything is stored when the voice consent is withdrawn
 * (403: the import is persona material), the file is over 20 MiB (413), not JSON or none of the formats
 * (422, naming them), has no line with text, or `sender` names no one in it (422). Otherwise the file
 * waits in R2 for the job, and the import is `queued` (the page shows 'queued: {job_id}'). `sender` is who the
 * owner is in the chat; without it, Telegram's full export names its exporter, and otherwise the job
 * asks (`needs_sender`, with the senders it found).
 */
export async function startChatImport(
  ctx: ServiceContext,
  owner: Pick<User, 'id'>,
  fields: TChatImportFields,
  file: { bytes: Uint8Array; fileName: string },
): Promise<TChatImport> {
  await requireConsent(ctx, owner.id, 'voice', consentWithdrawn('voice', 'no chat history is imported'));
  const size = file.bytes.byteLength;
  if (size > CHAT_IMPORT_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', `A chat export can be up to ${formatBytes(CHAT_IMPORT_MAX_BYTES)}`);
  if (size === 0) throw bodyFieldError('file', 'The file is empty', 'empty');
  const chat = readChatExport(parseJsonFile(file.bytes));
  const senders = countSenders(chat.lines);
  if (senders.length === 0) throw bodyFieldError('file', 'The export has no messages with text to import', 'empty_chat');
  if (fields.sender && !senders.some((s) => s.name === fields.sender)) throw unknownSender(fields.sender, senders);
  const self = fields.sender ?? (chat.selfHint && senders.some((s) => s.name === chat.selfHint) ? chat.selfHint : null);

  const id = crypto.randomUUID();
  const key = chatImportKey(owner.id, id);
  const now = ctx.now().getTime();
  await ctx.env.BLOBS.put(key, file.bytes, { httpMetadata: { contentType: 'application/json' } });
  await ctx.env.DB.prepare(
    `INSERT INTO chat_imports (id, owner_id, status, format, file_name, size, r2_key, self_sender, created_at)
     VALUES (?1, ?2, 'queued', ?3, ?4, ?5, ?6, ?7, ?8)`,
  )
    .bind(id, owner.id, chat.format, cleanFileName(file.fileName) || 'chat.json', size, key, self, now)
    .run();
  await enqueue(ctx, owner.id, id);
  return toView((await importRow(ctx, owner.id, id))!);
}

/** Sends the job; a queue that refuses it ends the import `failed` with the reason, never a `queued` that nothing reads. */
async function enqueue(ctx: ServiceContext, ownerId: string, id: string) {
  try {
    await ctx.env.JOBS.send({ type: 'chat_import', import_id: id } satisfies ChatImportJob, { contentType: 'json' });
  } catch (err) {
    log.error('enqueue failed', { queue: 'JOBS', type: 'chat_import', error: String(err) });
    await ctx.env.DB.prepare(`UPDATE chat_imports SET status = 'failed', error = ?3 WHERE id = ?1 AND owner_id = ?2 AND status = 'queued'`)
      .bind(id, ownerId, 'The import could not be queued; upload the file again in a minute')
      .run();
  }
}

/** GET /api/imports/chat-history: the owner's imports, newest first. */
export async function listChatImports(ctx: ServiceContext, ownerId: string): Promise<TChatImport[]> {
  const { results } = await ctx.env.DB.prepare('SELECT * FROM chat_imports WHERE owner_id = ?1 ORDER BY created_at DESC, id').bind(ownerId).all<ImportRow>();
  return results.map(toView);
}

/** GET /api/imports/chat-history/{id}: one import (the job the page polls); 404 when not the caller's. */
export async function getChatImport(ctx: ServiceContext, ownerId: string, id: string): Promise<TChatImport> {
  const row = await importRow(ctx, ownerId, id);
  if (!row) throw chatImportNotFound();
  return toView(row);
}

/**
 * POST /api/imports/chat-history/{id}/sender: the owner says which sender is them, while the import
 * waits for it (409 otherwise); 422 for a name not among its senders. The job runs again.
 */
export async function chooseChatSender(ctx: ServiceContext, ownerId: string, id: string, input: { sender?: unknown }): Promise<TChatImport> {
  const row = await importRow(ctx, ownerId, id);
  if (!row) throw chatImportNotFound();
  const { sender } = parseOrThrow(ZChatImportSenderChoice, input, 'body');
  if (row.status !== 'needs_sender') throw new AppError('CONFLICT', 'This import is not waiting for you to pick yourself');
  const senders: { name: string }[] = row.senders ? JSON.parse(row.senders) : [];
  if (!senders.some((s) => s.name === sender)) throw unknownSender(sender, senders);
  const picked = await ctx.env.DB.prepare(
    `UPDATE chat_imports SET status = 'queued', self_sender = ?3 WHERE id = ?1 AND owner_id = ?2 AND status = 'needs_sender'`,
  )
    .bind(id, ownerId, sender)
    .run();
  if (picked.meta.changes !== 1) throw new AppError('CONFLICT', 'This import is not waiting for you to pick yourself');
  await enqueue(ctx, ownerId, id);
  return getChatImport(ctx, ownerId, id);
}

/** DELETE /api/imports/chat-history/{id}: the import, its lines (by the foreign key) and a file still waiting. */
export async function deleteChatImport(ctx: ServiceContext, ownerId: string, id: string): Promise<void> {
  const row = await ctx.env.DB.prepare('DELETE FROM chat_imports WHERE id = ?1 AND owner_id = ?2 RETURNING r2_key')
    .bind(id, ownerId)
    .first<{ r2_key: string | null }>();
  if (!row) throw chatImportNotFound();
  if (row.r2_key) await ctx.env.BLOBS.delete(row.r2_key);
}

/** Every import of the owner's, their lines and waiting files: the voice consent withdrawn (legal/consents.ts). */
export async function eraseChatImports(ctx: ServiceContext, ownerId: string): Promise<void> {
  const { results } = await ctx.env.DB.prepare('DELETE FROM chat_imports WHERE owner_id = ?1 RETURNING r2_key').bind(ownerId).all<{ r2_key: string | null }>();
  const keys = results.flatMap((r) => (r.r2_key ? [r.r2_key] : []));
  for (let i = 0; i < keys.length; i += 1000) await ctx.env.BLOBS.delete(keys.slice(i, i + 1000));
}
