import { cleanFileName } from '../../../contracts/attachments';

/** One R2 object of the user's, and where it goes in the archive. */
export interface UserFile {
  key: string;
  path: string;
  size: number;
  encrypted: boolean;
}

const RECEIVED = 'SELECT id FROM messages WHERE recipient_user_id = ?1 AND released_at IS NOT NULL';

/**
 * Every R2 object the user owns, and every one released to them: the audio of messages they sent or
 * received, their attachments and vault files, and the attachments of messages released to them (a
 * vault file given to them among them), and the copies of accounts left to them (domains/legacy/), and their voice samples. Never what is unreleased or someone else's. E2EE bytes stay as
 * stored (ciphertext); the archive's README says how to open them. (D1 allows at most five terms in
 * one compound SELECT: a sixth kind of file needs a second query.)
 */
export async function userFiles(db: D1Database, userId: string): Promise<UserFile[]> {
  const { results } = await db
    .prepare(
      `SELECT 'messages_sent/' || id || '/recording' AS path, audio_key AS key, audio_bytes AS size, use_e2ee AS encrypted
         FROM messages WHERE sender_id = ?1 AND audio_key IS NOT NULL
       UNION ALL
       SELECT 'messages_received/' || id || '/recording', audio_key, audio_bytes, use_e2ee
         FROM messages WHERE id IN (${RECEIVED}) AND audio_key IS NOT NULL
       UNION ALL
       SELECT 'attachments/' || message_id || '/' || id || '-' || name, r2_key, size, 1
         FROM message_attachments WHERE owner_id = ?1 AND r2_key NOT LIKE 'vault/%'
       UNION ALL
       SELECT 'messages_received/' || message_id || '/' || id || '-' || name, r2_key, size, 1
         FROM message_attachments WHERE message_id IN (${RECEIVED})
       UNION ALL
       SELECT 'vault/' || id || '-' || name, r2_key, size, 1 FROM vault_assets WHERE owner_id = ?1`,
    )
    .bind(userId)
    .all<{ path: string; key: string; size: number; encrypted: number }>();
  const { results: copies } = await db
    .prepare(
      `SELECT 'legacy/' || c.id || '.zip' AS path, c.r2_key AS key, c.size AS size, 0 AS encrypted FROM legacy_copies c
       JOIN scheduled_deletions d ON d.id = c.deletion_id WHERE c.recipient_user_id = ?1 AND c.status = 'ready' AND d.status = 'done'
       UNION ALL
       SELECT 'voice/' || id || '-' || label || CASE content_type WHEN 'audio/wav' THEN '.wav' WHEN 'audio/ogg' THEN '.ogg' ELSE '.webm' END,
         r2_key, size, 0 FROM voice_samples WHERE owner_id = ?1
       UNION ALL
       SELECT 'voice_prompts/' || id || CASE content_type WHEN 'audio/wav' THEN '.wav' WHEN 'audio/ogg' THEN '.ogg' ELSE '.webm' END,
         r2_key, size, 0 FROM voice_prompts WHERE owner_id = ?1 AND r2_key IS NOT NULL
       UNION ALL
       SELECT 'capsules/' || i.capsule_id || '/' || i.id || CASE i.content_type WHEN 'audio/wav' THEN '.wav' WHEN 'audio/ogg' THEN '.ogg'
           WHEN 'video/mp4' THEN '.mp4' ELSE '.webm' END,
         i.r2_key, i.size, 0 FROM capsule_items i JOIN capsules c ON c.id = i.capsule_id WHERE c.author_id = ?1 AND i.r2_key IS NOT NULL`,
    )
    .bind(userId)
    .all<{ path: string; key: string; size: number; encrypted: number }>();
  return [...results, ...copies].map((r) => ({
    key: r.key,
    // Names are the users' own labels: cleaned of anything that could climb out of files/.
    path: `files/${r.path
      .split('/')
      .map((part) => cleanFileName(part))
      .join('/')}${r.encrypted ? '.enc' : ''}`,
    size: r.size,
    encrypted: Boolean(r.encrypted),
  }));
}
