import type { ServiceContext } from '../../env';

/** One line the owner wrote in an imported chat, with the line it answered. */
export interface ChatMaterial {
  text: string;
  prompt: string | null;
}

/**
 * The owner's imported lines as persona material (docs/decisions/chat-import.md): what the persona's
 * retrieval searches besides the seed answers and Messages from the Beyond. Only complete imports have
 * lines; deleting an import or withdrawing the voice consent removes them.
 */
export async function listChatMaterial(ctx: ServiceContext, ownerId: string): Promise<ChatMaterial[]> {
  const { results } = await ctx.env.DB.prepare('SELECT text, prompt FROM persona_chat_lines WHERE owner_id = ?1 ORDER BY import_id, position')
    .bind(ownerId)
    .all<ChatMaterial>();
  return results;
}
