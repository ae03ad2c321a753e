import { SEED_QUESTIONS } from '../../../contracts/persona';
import type { ServiceContext } from '../../../env';
import { listChatMaterial } from '../../chat-import/material';

/**
 * What a persona answers from: pieces of the owner's own words. Each source turns one kind of material
 * into snippets; the engine indexes them all (docs/decisions/voice.md "Persona replies").
 */
export interface PersonaSnippet {
  /** Unique within one persona's material, e.g. `seed:advice`, `beyond:<id>`, `chat:<id>`. */
  id: string;
  /** What the snippet answers, when known (a seed question, a Message-from-the-Beyond prompt): weighed above `text`. */
  question: string | null;
  /** The owner's own words. */
  text: string;
  /** How a reply names where it came from, e.g. `Your answer to “…”`, for the people listening. */
  label: string;
}

/** Who is asking: the material a listener may hear depends on the owner's release. */
export interface PersonaAudience {
  /** The owner trying their own persona (hears everything they left, locked or not). */
  isOwner: boolean;
  /** The owner's release has happened: locked Messages from the Beyond may be heard. */
  released: boolean;
}

/**
 * One kind of persona material. The chat-history import (docs/decisions/chat-import.md, built apart) plugs its
 * stored lines in by adding a source to PERSONA_MATERIAL_SOURCES: `load` returns the owner's own lines
 * (never the other people's), each as a snippet with `question` null (or the line it answered, if the
 * import keeps it).
 */
export interface PersonaMaterialSource {
  readonly kind: string;
  load(ctx: ServiceContext, ownerId: string, audience: PersonaAudience): Promise<PersonaSnippet[]>;
}

interface PersonaRow {
  persona_text: string;
  qa: string;
}

/** The persona text (split into paragraphs) and the seed questions' answers. */
export const personaSource: PersonaMaterialSource = {
  kind: 'persona',
  async load(ctx, ownerId) {
    const row = await ctx.env.DB.prepare('SELECT persona_text, qa FROM persona_profiles WHERE user_id = ?1').bind(ownerId).first<PersonaRow>();
    if (!row) return [];
    const qa = JSON.parse(row.qa) as { question_id: string; answer: string }[];
    const questions = new Map<string, string>(SEED_QUESTIONS.map((q) => [q.id, q.text]));
    const answers = qa.flatMap((a) => {
      const question = questions.get(a.question_id);
      return question ? [{ id: `seed:${a.question_id}`, question, text: a.answer, label: `Answer to “${question}”` }] : [];
    });
    const about = row.persona_text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((text, i) => ({ id: `about:${i}`, question: 'Who are you? Tell me about yourself.', text, label: 'In their own words about themselves' }));
    return [...answers, ...about];
  },
};

/** Messages from the Beyond with a written answer: unlocked ones always, locked ones only after release (or to the owner). */
export const beyondSource: PersonaMaterialSource = {
  kind: 'beyond',
  async load(ctx, ownerId, audience) {
    const { results } = await ctx.env.DB.prepare(
      'SELECT id, prompt, response_text FROM voice_prompts WHERE owner_id = ?1 AND response_text IS NOT NULL AND (locked = 0 OR ?2 = 1) ORDER BY created_at',
    )
      .bind(ownerId, audience.isOwner || audience.released ? 1 : 0)
      .all<{ id: string; prompt: string; response_text: string }>();
    return results.map((r) => ({ id: `beyond:${r.id}`, question: r.prompt, text: r.response_text, label: `Message from the Beyond: “${r.prompt}”` }));
  },
};

/** At most this many imported chat lines are indexed per reply (the most recent): an index per request stays fast. */
export const CHAT_LINES_INDEXED = 5000;

/**
 * The owner's own lines from imported chat histories (`persona_chat_lines`, written by the chat-history
 * import: docs/decisions/chat-import.md), each with the other person's line it answered as its question.
 */
export const chatLinesSource: PersonaMaterialSource = {
  kind: 'chat',
  async load(ctx, ownerId) {
    const results = await listChatMaterial(ctx, ownerId, CHAT_LINES_INDEXED);
    return results.map((r) => ({ id: `chat:${r.id}`, question: r.prompt, text: r.text, label: 'Their own words in an imported chat' }));
  },
};

/** Every source the engine reads; another kind of material joins by adding its source here. */
export const PERSONA_MATERIAL_SOURCES: PersonaMaterialSource[] = [personaSource, beyondSource, chatLinesSource];

export async function loadPersonaMaterial(
  ctx: ServiceContext,
  ownerId: string,
  audience: PersonaAudience,
  sources: readonly PersonaMaterialSource[] = PERSONA_MATERIAL_SOURCES,
): Promise<PersonaSnippet[]> {
  const all = await Promise.all(sources.map((s) => s.load(ctx, ownerId, audience)));
  return all.flat().filter((s) => s.text.trim() !== '');
}
