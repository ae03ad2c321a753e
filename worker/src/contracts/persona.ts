import { z } from 'zod';
import { PERSONA_BEHAVIORS } from '@afterword/db/enums';

/**
 * The persona (docs/product.md "Voice, persona and chat import"; `POST /api/ai/train-profile {persona_text, behavior,
 * qa}`): the owner's own words that the persona will answer from. It has 10 seed questions; this
 * is the one list, shown by the Voice Trainer page. Ids are stable: answers are stored by id, so the
 * wording of a question can be improved without losing them.
 */
export const SEED_QUESTIONS = [
  { id: 'earliest_memory', text: 'What is your earliest happy memory?' },
  { id: 'proudest', text: 'What are you most proud of?' },
  { id: 'advice', text: 'What advice would you give the people you love?' },
  { id: 'remembered', text: 'How would you like to be remembered?' },
  { id: 'laugh', text: 'What always makes you laugh?' },
  { id: 'hardest_time', text: 'What did your hardest time teach you?' },
  { id: 'places', text: 'Which places mean the most to you, and why?' },
  { id: 'traditions', text: 'Which traditions matter most to you?' },
  { id: 'said_more', text: 'What do you wish you had said more often?' },
  { id: 'missing_me', text: 'What would you tell someone who misses you?' },
] as const;
export type SeedQuestionId = (typeof SEED_QUESTIONS)[number]['id'];
const SEED_IDS = SEED_QUESTIONS.map((q) => q.id) as [SeedQuestionId, ...SeedQuestionId[]];

export const PERSONA_TEXT_MAX = 5000;
export const PERSONA_ANSWER_MAX = 2000;

export const BEHAVIOR_LABEL: Record<(typeof PERSONA_BEHAVIORS)[number], string> = {
  playful: 'Playful',
  wise: 'Wise',
  comforting: 'Comforting',
  neutral: 'Neutral',
};

const ZAnswer = z.object({
  question_id: z.enum(SEED_IDS, { message: `question_id must be one of the seed questions: ${SEED_IDS.join(', ')}` }),
  answer: z
    .string({ message: 'answer must be text' })
    .max(PERSONA_ANSWER_MAX, { message: `an answer must be at most ${PERSONA_ANSWER_MAX.toLocaleString('en-US')} characters` })
    .transform((v) => v.trim()),
});

/** POST /api/ai/train-profile. Blank answers are dropped; each question at most once. */
export const ZPersonaInput = z.object({
  persona_text: z
    .string({ message: 'persona_text is required (it may be empty)' })
    .max(PERSONA_TEXT_MAX, { message: `persona_text must be at most ${PERSONA_TEXT_MAX.toLocaleString('en-US')} characters` })
    .transform((v) => v.trim()),
  behavior: z.enum(PERSONA_BEHAVIORS, { message: 'behavior must be playful, wise, comforting or neutral' }),
  qa: z
    .array(ZAnswer, { message: 'qa must be a list of {question_id, answer}' })
    .max(SEED_QUESTIONS.length)
    .refine((qa) => new Set(qa.map((a) => a.question_id)).size === qa.length, { message: 'each seed question may be answered once' })
    .transform((qa) => qa.filter((a) => a.answer !== '')),
});
export type TPersonaInput = z.output<typeof ZPersonaInput>;

export const ZPersona = z.object({
  persona_text: z.string(),
  behavior: z.enum(PERSONA_BEHAVIORS),
  qa: z.array(z.object({ question_id: z.string(), answer: z.string() })),
  /** Seed questions answered, of SEED_QUESTIONS.length. */
  answered: z.number().int(),
  updated_at: z.string().nullable(),
});
export type PersonaView = z.infer<typeof ZPersona>;
