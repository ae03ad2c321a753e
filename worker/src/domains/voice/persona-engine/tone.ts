import type { PersonaView } from '../../../contracts/persona';
import type { RetrievedSnippet } from './retrieval';

/**
 * The tone rules of the four behaviours (docs/product.md "Voice, persona and chat import") and the rules every
 * reply keeps, whatever the tone (docs/decisions/voice.md "Persona replies"; the Cambridge "Griefbots" study's
 * recommendations):
 * - it never claims the person is alive: the framing speaks of what they left, in the past, and a
 *   sentence of their own words that would read as a claim of being alive now is left out;
 * - it never advertises: no product, plan or upgrade is ever named in the person's voice;
 * - it says so when the answer is not from the person's own words.
 * Each tone changes the framing around the owner's words, never the words themselves.
 */
export type Behavior = PersonaView['behavior'];

interface ToneRules {
  /** Before the owner's own words. */
  open: string;
  /** After them. */
  close: string;
  /** When nothing the person left answers the question: says it is not their words. */
  noMatch: string;
  /** How the suggestions of what to ask instead are introduced. */
  suggest: string;
}

export const TONES: Record<Behavior, ToneRules> = {
  playful: {
    open: 'Ha, good one! Here is what I wrote:',
    close: 'Now go and do something fun with that.',
    noMatch: 'Oh, you got me there! I never left any words about that, so I will not put any in my mouth: this reply is not from my own words.',
    suggest: 'Ask me something I did answer, like',
  },
  wise: {
    open: 'Here is what I came to believe, in my own words:',
    close: 'Take from it what serves you.',
    noMatch: 'Not every question has an answer I left behind. I never wrote about that, so this reply is not from my own words.',
    suggest: 'Perhaps ask what I did set down:',
  },
  comforting: {
    open: 'I left these words for moments like this:',
    close: 'Be gentle with yourself.',
    noMatch: 'I am sorry, I never left words about that. This reply is not from my own words, and I would not want to pretend.',
    suggest: 'You could ask me about',
  },
  neutral: {
    open: 'In my own words:',
    close: '',
    noMatch: 'I did not leave an answer to that. This reply is not from my own words.',
    suggest: 'You could ask about',
  },
};

/**
 * Sentences that would tell the listener the person is alive now ("I'm still here", "I am alive", "I'll
 * see you tomorrow"): left out of a reply even when they are the person's own words, because a reply is
 * heard after their release. Kept narrow on purpose: memories in the present tense ("I live by the sea")
 * are their words about their life and stay.
 */
const LIFE_CLAIMS = [
  /\bI(?:'|’| a)m (?:still )?(?:alive|here|with you|around|not dead|not gone)\b/i,
  /\bI(?:'|’| wi)ll (?:see|call|visit|text|talk to) you (?:soon|tomorrow|later|next)\b/i,
  /\bI(?:'|’| a)m not (?:dead|gone)\b/i,
  /\b(?:talk|speak)(?:ing)? to me (?:right )?now\b/i,
];

export function withoutLifeClaims(text: string): string {
  const sentences = text.match(/[^.!?]+[.!?]*\s*/g) ?? [text];
  return sentences
    .filter((s) => !LIFE_CLAIMS.some((r) => r.test(s)))
    .join('')
    .trim();
}

export const claimsLife = (text: string) => LIFE_CLAIMS.some((r) => r.test(text));

/** The best match in the tone's framing, the owner's words in between. */
export function shapeOwnWords(behavior: Behavior, match: RetrievedSnippet): string | null {
  const words = withoutLifeClaims(match.text);
  if (!words) return null;
  const tone = TONES[behavior];
  return [tone.open, words, tone.close].filter(Boolean).join(' ');
}

/** The no-match reply: says it is not the person's words, and offers what they did answer. */
export function shapeNoMatch(behavior: Behavior, answered: readonly string[]): string {
  const tone = TONES[behavior];
  const topics = answered.slice(0, 3).map((q) => `“${q}”`);
  const offer = topics.length === 0 ? '' : ` ${tone.suggest} ${topics.length === 1 ? topics[0] : `${topics.slice(0, -1).join(', ')} or ${topics.at(-1)}`}.`;
  return `${tone.noMatch}${offer}`;
}
