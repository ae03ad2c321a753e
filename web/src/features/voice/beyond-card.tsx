import type { VoicePromptView } from '@afterword/worker/contracts/voice';
import { PROMPT_MAX, PROMPT_RESPONSE_MAX } from '@afterword/worker/contracts/voice';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { CheckboxField } from '../../components/checkbox';
import { EmptyState } from '../../components/empty-state';
import { Field, TextField } from '../../components/field';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { type Recording, VoiceRecorder } from '../messages/voice-recorder';
import { T } from './texts';
import { seconds } from './format';
import { createVoicePrompt } from './voice-api';

export type CreatePrompt = (prompt: string, responseText: string, recording: Blob | null, locked: boolean) => Promise<VoicePromptView>;

/**
 * Message from the Beyond (docs/product.md "Voice, persona and chat import"): a question and the owner's own
 * answer, written or recorded.
 */
export function BeyondCard({ create = createVoicePrompt }: { create?: CreatePrompt }) {
  const utils = trpc.useUtils();
  const prompts = trpc.voice.prompts.useQuery();
  const [prompt, setPrompt] = useState('');
  const [answer, setAnswer] = useState('');
  const [recording, setRecording] = useState<Recording | null>(null);
  const [locked, setLocked] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = trpc.voice.deletePrompt.useMutation({
    onSuccess: async () => {
      toast.success(T.beyondDeleted);
      await utils.voice.prompts.invalidate();
    },
    onError: (e) => void toast.error(readApiError(e).detail ?? 'Could not delete'),
  });

  async function save() {
    if (!prompt.trim()) return setError(T.beyondNeedsPrompt);
    if (!answer.trim() && !recording) return setError(T.beyondNeedsAnswer);
    setError(null);
    setBusy(true);
    try {
      await create(prompt, answer, recording?.blob ?? null, locked);
      toast.success(T.beyondSaved);
      setPrompt('');
      setAnswer('');
      if (recording) URL.revokeObjectURL(recording.url);
      setRecording(null);
      await utils.voice.prompts.invalidate();
      void utils.attachments.storage.invalidate();
    } catch (err) {
      toast.error(readApiError(err).detail ?? 'Could not save the answer');
    } finally {
      setBusy(false);
    }
  }

  const items = prompts.data ?? [];
  return (
    <Card title={T.beyondTitle}>
      <p className="muted">{T.beyondIntro}</p>
      <TextField
        label={T.beyondPrompt}
        hint={T.beyondPromptHint}
        value={prompt}
        maxLength={PROMPT_MAX}
        onChange={(e) => setPrompt(e.target.value)}
        error={error === T.beyondNeedsPrompt ? error : null}
      />
      <Field label={T.beyondResponse} error={error === T.beyondNeedsAnswer ? error : null}>
        {(control) => (
          <textarea
            className="input textarea"
            rows={3}
            maxLength={PROMPT_RESPONSE_MAX}
            value={answer}
            onChange={(e) => setAnswer(e.target.value)}
            {...control}
          />
        )}
      </Field>
      <VoiceRecorder value={recording} onChange={setRecording} disabled={busy} legend={T.beyondRecord} />
      <CheckboxField label={T.beyondLocked} checked={locked} onChange={(e) => setLocked(e.target.checked)} />
      <div className="button-row">
        <Button onClick={() => void save()} disabled={busy}>
          {T.beyondSave}
        </Button>
      </div>
      {prompts.data && items.length === 0 ? <EmptyState title={T.beyondEmpty} /> : null}
      {items.length > 0 ? (
        <ul className="voice-prompts" aria-label={T.beyondTitle}>
          {items.map((p) => (
            <li key={p.id} aria-label={p.prompt}>
              <strong>{p.prompt}</strong> <span className="muted">{p.locked ? T.beyondLockedBadge : T.beyondOpenBadge}</span>
              {p.response_text ? <p>{p.response_text}</p> : null}
              {p.has_audio && p.duration_ms != null ? <p className="muted">{T.recordedAnswer(seconds(p.duration_ms))}</p> : null}
              <Button variant="ghost" aria-label={T.deletePrompt(p.prompt)} disabled={remove.isPending} onClick={() => remove.mutate({ id: p.id })}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
