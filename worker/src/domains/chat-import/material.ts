import type { ServiceContext } from '../../env';

/** One line the owner wrote in an imported chat, with the line it answered. */
export interface ChatMaterial {
  id: number;
  text: string;
  prompt: string | null;
}

/**
 * The owner's imported lines as persona material (docs/decisions/chat-import.md), most recent first, at
 * most `limit` of them: what the persona's retrieval searches besides the seed answers and Messages from
 * the Beyond (domains/voice/persona-engine/material.ts). Only complete imports have lines; deleting an
 * import or withdrawing the voice consent removes them.
 */
export async function listChatMaterial(ctx: ServiceContext, ownerId: string, limit: number): Promise<ChatMaterial[]> {
  const { results } = await ctx.env.DB.prepare(
    'SELECT id, text, prompt FROM persona_chat_lines WHERE owner_id = ?1 ORDER BY sent_at DESC, position DESC LIMIT ?2',
  )
    .bind(ownerId, limit)
    .all<ChatMaterial>();
  return results;
}
