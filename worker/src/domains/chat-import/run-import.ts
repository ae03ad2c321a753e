import type { ChatImportJob } from '../../contracts/jobs';
import type { ServiceContext } from '../../env';
import { log } from '../../lib/logger';
import { hasConsent } from '../legal/consent-state';
import { readChatExport } from './formats';
import type { ImportRow } from './imports';
import { countSenders, ownLines } from './own-lines';

/** D1 binds at most 100 values per statement: six per line. */
const LINES_PER_INSERT = 16;
const INSERTS_PER_BATCH = 50;

const fail = (ctx: ServiceContext, id: string, error: string) =>
  ctx.env.DB.prepare(`UPDATE chat_imports SET status = 'failed', error = ?2 WHERE id = ?1 AND status IN ('queued', 'processing')`).bind(id, error).run();

/**
 * The JOBS consumer of `chat_import`: reads the waiting file, and either asks the owner which sender is
 * them (`needs_sender`, with the senders found) or stores their own lines and completes, deleting the
 * file. Idempotent: an import that is no longer queued or processing is left alone, and the lines of an
 * attempt cut short are replaced, not added to, when the job runs again. A file that cannot be read ends
 * `failed` with the reason; an unexpected error is thrown so that the queue retries it.
 */
export async function runChatImport(ctx: ServiceContext, job: ChatImportJob): Promise<'complete' | 'needs_sender' | 'failed' | 'skipped'> {
  const db = ctx.env.DB;
  const started = await db
    .prepare(`UPDATE chat_imports SET status = 'processing' WHERE id = ?1 AND status IN ('queued', 'processing') RETURNING *`)
    .bind(job.import_id)
    .first<ImportRow>();
  if (!started) return 'skipped';
  // The voice consent withdrawn since the upload erases the import itself; this covers the race.
  if (!(await hasConsent(ctx, started.owner_id, 'voice'))) {
    await fail(ctx, started.id, 'The voice consent was withdrawn: nothing was imported');
    return 'failed';
  }
  const object = started.r2_key ? await ctx.env.BLOBS.get(started.r2_key) : null;
  if (!object) {
    await fail(ctx, started.id, 'The uploaded file is no longer there; upload it again');
    return 'failed';
  }
  let chat: ReturnType<typeof readChatExport>;
  try {
    chat = readChatExport(JSON.parse(await object.text()));
  } catch {
    await fail(ctx, started.id, 'The file could not be read as a chat export; upload it again');
    return 'failed';
  }
  const senders = countSenders(chat.lines);
  const self = started.self_sender && senders.some((s) => s.name === started.self_sender) ? started.self_sender : null;
  if (!self) {
    await db
      .prepare(`UPDATE chat_imports SET status = 'needs_sender', senders = ?2, message_count = ?3, self_sender = NULL WHERE id = ?1 AND status = 'processing'`)
      .bind(started.id, JSON.stringify(senders), chat.lines.length)
      .run();
    return 'needs_sender';
  }

  const lines = ownLines(chat.lines, self);
  const statements = [db.prepare('DELETE FROM persona_chat_lines WHERE import_id = ?1').bind(started.id)];
  for (let i = 0; i < lines.length; i += LINES_PER_INSERT) {
    const chunk = lines.slice(i, i + LINES_PER_INSERT);
    const values = chunk.map((_, j) => `(?${j * 6 + 1}, ?${j * 6 + 2}, ?${j * 6 + 3}, ?${j * 6 + 4}, ?${j * 6 + 5}, ?${j * 6 + 6})`).join(', ');
    const bound = chunk.flatMap((l) => [started.id, started.owner_id, l.position, l.text, l.prompt, l.sent_at]);
    statements.push(db.prepare(`INSERT INTO persona_chat_lines (import_id, owner_id, position, text, prompt, sent_at) VALUES ${values}`).bind(...bound));
  }
  // The first batch holds the DELETE, so a partial earlier attempt is gone before anything is added.
  for (let i = 0; i < statements.length; i += INSERTS_PER_BATCH) await db.batch(statements.slice(i, i + INSERTS_PER_BATCH));
  const done = await db
    .prepare(
      `UPDATE chat_imports SET status = 'complete', senders = ?2, message_count = ?3, line_count = ?4, completed_at = ?5, r2_key = NULL, error = NULL
       WHERE id = ?1 AND status = 'processing'`,
    )
    .bind(started.id, JSON.stringify(senders), chat.lines.length, lines.length, ctx.now().getTime())
    .run();
  if (done.meta.changes === 1) await ctx.env.BLOBS.delete(started.r2_key!);
  log.info('chat import complete', { import_id: started.id, lines: lines.length });
  return 'complete';
}
