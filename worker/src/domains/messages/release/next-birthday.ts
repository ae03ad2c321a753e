import type { Message } from '@afterword/db/schema';
import { DAY_MS } from './schedule';

/**
 * A yearly birthday item's next year: the statements that copy the released message into a new one —
 * same recipient, envelope and file, `deliver_at` the day after this birthday so its rule waits for the
 * next one — with its first transition and its attachment row. They run in the release's own batch,
 * each only if the release's transition was written and the item still repeats; the unique index on
 * (vault_item_id, deliver_at) makes a second copy for the same year impossible.
 */
export function nextBirthday(db: D1Database, message: Message, releasedAt: number) {
  const messageId = crypto.randomUUID();
  const releaseDay = releasedAt - (releasedAt % DAY_MS);
  const notBefore = releaseDay + DAY_MS;
  const ifNew = 'WHERE EXISTS (SELECT 1 FROM messages WHERE id = ?1)';
  const statements = (ifTransition: { sql: string; params: unknown[] }) => [
    db
      .prepare(
        `INSERT OR IGNORE INTO messages (id, sender_id, recipient_user_id, content, content_encrypted, deliver_at, delivery_method, use_e2ee, rules, status, version, vault_item_id, created_at, updated_at)
         SELECT ?1, m.sender_id, m.recipient_user_id, '', m.content_encrypted, ?3, m.delivery_method, m.use_e2ee,
                json_array(json_object('trigger_type', 'recipient_birthday', 'trigger_value', v.condition_value, 'expire_window', NULL, 'fired_at', NULL)),
                'scheduled', 0, m.vault_item_id, ?4, ?4
         FROM messages m JOIN vault_items v ON v.id = m.vault_item_id
         WHERE m.id = ?2 AND v.every_year = 1 AND ${ifTransition.sql.replace(/^WHERE /, '')}`,
      )
      .bind(messageId, message.id, notBefore, releasedAt, ...ifTransition.params),
    db
      .prepare(
        `INSERT INTO message_transitions (id, message_id, from_status, to_status, cause, detail, created_at)
         SELECT ?2, ?1, NULL, 'scheduled', 'created', 'Created for next year: this vault item is given again on every birthday.', ?3 ${ifNew}`,
      )
      .bind(messageId, crypto.randomUUID(), releasedAt),
    db
      .prepare(
        `INSERT INTO message_attachments (id, message_id, owner_id, r2_key, iv, name, size, created_at)
         SELECT ?2, ?1, owner_id, r2_key, iv, name, size, ?4 FROM message_attachments WHERE message_id = ?3 AND EXISTS (SELECT 1 FROM messages WHERE id = ?1)`,
      )
      .bind(messageId, crypto.randomUUID(), message.id, releasedAt),
  ];
  return { messageId, statements };
}
