import { BEHAVIOR_LABEL, type PersonaView, SEED_QUESTIONS, PERSONA_ANSWER_MAX, PERSONA_TEXT_MAX } from '@afterword/worker/contracts/persona';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { Field } from '../../components/field';
import { SelectField } from '../../components/select';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { T } from './texts';

const BEHAVIOR_OPTIONS = Object.entries(BEHAVIOR_LABEL).map(([value, label]) => ({ value, label }));

/**
 * Persona setup (docs/product.md "Voice, persona and chat import"): who you are, the tone, and the 10 seed
 * questions (one list, in contracts).
 */
export function PersonaCard() {
  const persona = trpc.voice.persona.useQuery();
  return <Card title={T.personaTitle}>{persona.data ? <PersonaForm initial={persona.data} /> : <p className="muted">…</p>}</Card>;
}

function PersonaForm({ initial }: { initial: PersonaView }) {
  const utils = trpc.useUtils();
  const [text, setText] = useState(initial.persona_text);
  const [behavior, setBehavior] = useState(initial.behavior);
  const [answers, setAnswers] = useState<Record<string, string>>(() => Object.fromEntries(initial.qa.map((a) => [a.question_id, a.answer])));
  const save = trpc.voice.savePersona.useMutation({
    onSuccess: (saved) => {
      toast.success(T.personaSaved);
      utils.voice.persona.setData(undefined, saved);
    },
    onError: (error) => void toast.error(readApiError(error).detail?.toString() ?? T.personaFailed),
  });
  return (
    <form
      className="persona-form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({
          persona_text: text,
          behavior,
          qa: SEED_QUESTIONS.map((q) => ({ question_id: q.id, answer: answers[q.id] ?? '' })).filter((a) => a.answer.trim() !== ''),
        });
      }}
    >
      <p className="muted">{T.personaIntro}</p>
      <Field label={T.personaText} hint={T.personaTextHint}>
        {(control) => (
          <textarea className="input textarea" rows={4} maxLength={PERSONA_TEXT_MAX} value={text} onChange={(e) => setText(e.target.value)} {...control} />
        )}
      </Field>
      <SelectField label={T.behavior} options={BEHAVIOR_OPTIONS} value={behavior} onChange={(e) => setBehavior(e.target.value as PersonaView['behavior'])} />
      <fieldset className="fieldset">
        <legend className="fieldset__legend">{T.seedQuestions}</legend>
        {SEED_QUESTIONS.map((q) => (
          <Field key={q.id} label={q.text}>
            {(control) => (
              <textarea
                className="input textarea"
                rows={2}
                maxLength={PERSONA_ANSWER_MAX}
                value={answers[q.id] ?? ''}
                onChange={(e) => setAnswers((prev) => ({ ...prev, [q.id]: e.target.value }))}
                {...control}
              />
            )}
          </Field>
        ))}
      </fieldset>
      <div className="button-row">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? T.personaSaving : T.personaSave}
        </Button>
      </div>
    </form>
  );
}
