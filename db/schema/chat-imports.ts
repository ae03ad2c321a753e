import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { CHAT_IMPORT_FORMATS, CHAT_IMPORT_STATUSES } from './enums';
import { users } from './users';

/*
 * Chat-history import (POST /api/imports/chat-history; docs/decisions/chat-import.md): an owner's
 * messenger export becomes persona material — their own lines, each with the line it answered. Erased
 * with the voice consent like the rest of the persona, and with the account.
 */

/**
 * One uploaded export. The file waits in R2 under `r2_key` only until its lines are stored (then the
 * key is cleared and the object deleted): other people's words are not kept beyond what the owner's
 * lines answered. `senders` is what the job found ([{name, count}]), for the owner to say which is them.
 */
export const chatImports = sqliteTable(
  'chat_imports',
  {
    id: text('id').primaryKey(),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: CHAT_IMPORT_STATUSES }).notNull(),
    format: text('format', { enum: CHAT_IMPORT_FORMATS }).notNull(),
    file_name: text('file_name').notNull(),
    size: integer('size').notNull(),
    r2_key: text('r2_key'),
    /** The sender the owner said is them (at upload or afterwards); null until known. */
    self_sender: text('self_sender'),
    senders: text('senders', { mode: 'json' }).$type<{ name: string; count: number }[]>(),
    message_count: integer('message_count'),
    line_count: integer('line_count'),
    /** Why the job failed, in words for the owner. */
    error: text('error'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    completed_at: integer('completed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('chat_imports_owner_idx').on(t.owner_id, t.created_at)],
);

/**
 * One line the owner wrote, with `prompt`: the other person's line just before it (what it answered),
 * which the persona's retrieval matches a question against. `position` keeps the export's order.
 */
export const personaChatLines = sqliteTable(
  'persona_chat_lines',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    import_id: text('import_id')
      .notNull()
      .references(() => chatImports.id, { onDelete: 'cascade' }),
    owner_id: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    text: text('text').notNull(),
    prompt: text('prompt'),
    sent_at: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('persona_chat_lines_owner_idx').on(t.owner_id, t.import_id, t.position),
    // A deleted import's lines are found through this index: without it each deleted import read every line of every import.
    index('persona_chat_lines_import_idx').on(t.import_id),
  ],
);

export type ChatImport = typeof chatImports.$inferSelect;
export type PersonaChatLine = typeof personaChatLines.$inferSelect;
