import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { PersonaSnippet } from './material';

/**
 * Finding the owner's words that answer a question: BM25 full-text search (MiniSearch, a well-kept
 * dependency-free library that runs in workerd; docs/decisions/voice.md) over the snippets, with the
 * question a snippet answers weighed above its text. A match counts only when it shares content words
 * with the question — "what", "you" and the like match everything and prove nothing.
 */

const STOP_WORDS = new Set(
  `a about above after again all am an and any are as at be because been before being below between both but by can could
  did do does doing down during each few for from further had has have having he her here hers him his how i if in into is it
  its just me more most my no nor not of off on once only or other our ours out over own same she should so some such than that
  the their theirs them then there these they this those through to too under until up very was we were what when where which
  while who whom why will with would you your yours yourself tell please ever really much many`.split(/\s+/),
);

/**
 * Lower case, no stop words, and the Porter stem (the `stemmer` package: 4 kB, no dependencies), so
 * "memories" finds "memory" and "I miss you" finds "someone who misses you". A hand-made suffix rule
 * stemmed "miss" to "mis" but "misses" to "miss", and the question went unanswered.
 */
export function contentTerm(term: string): string | null {
  const t = term.toLowerCase().replace(/[’']/g, '');
  if (t.length < 2 || STOP_WORDS.has(t)) return null;
  return stemmer(t);
}

const tokenize = (text: string) => text.split(/[^\p{L}\p{N}’']+/u).filter(Boolean);

export interface RetrievedSnippet extends PersonaSnippet {
  score: number;
  /** The question's content words this snippet has. */
  matched: string[];
}

export interface Retrieval {
  /** Best first; empty when nothing of the owner's answers the question. */
  matches: RetrievedSnippet[];
  /** The question's content words (none: a question of only stop words, e.g. "what do you?"). */
  queryTerms: string[];
}

/** A persona's words, indexed once per request (a persona is small: ten answers, a text, some messages and chat lines). */
export class PersonaIndex {
  private readonly search: MiniSearch<PersonaSnippet>;
  private readonly byId: Map<string, PersonaSnippet>;

  constructor(readonly snippets: readonly PersonaSnippet[]) {
    this.byId = new Map(snippets.map((s) => [s.id, s]));
    this.search = new MiniSearch<PersonaSnippet>({
      fields: ['question', 'text'],
      tokenize,
      extractField: (doc, field) => (doc as unknown as Record<string, string | null>)[field] ?? '',
      processTerm: (t) => contentTerm(t) ?? null,
      searchOptions: { boost: { question: 2 }, prefix: (t) => t.length >= 5, fuzzy: (t) => (t.length >= 6 ? 0.2 : false) },
    });
    this.search.addAll([...snippets]);
  }

  find(question: string, limit = 3): Retrieval {
    const queryTerms = [...new Set(tokenize(question).flatMap((t) => contentTerm(t) ?? []))];
    if (queryTerms.length === 0 || this.snippets.length === 0) return { matches: [], queryTerms };
    const hits = this.search.search(question, { combineWith: 'OR' });
    // Enough of the question's own words: one of a short question's, a third of a long one's.
    const needed = Math.max(1, Math.ceil(queryTerms.length / 3));
    const matches = hits
      .filter((h) => h.queryTerms.length >= needed)
      .slice(0, limit)
      .map((h) => ({ ...this.byId.get(String(h.id))!, score: h.score, matched: h.queryTerms }));
    return { matches, queryTerms };
  }
}
