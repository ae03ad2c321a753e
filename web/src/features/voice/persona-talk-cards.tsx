import type { PersonaAccessView } from '@afterword/worker/contracts/persona-chat';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { CheckboxField } from '../../components/checkbox';
import { QueryState } from '../../components/query-state';
import { SelectField } from '../../components/select';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { CHAT_T, REPLY_ENGINE_LABEL } from './chat-texts';
import { Conversation } from './conversation';

/**
 * Try a conversation (docs/product.md "Voice, persona and chat import"): the owner asks their own persona,
 * through POST /api/voice/simulate-response.
 */
export function TryConversationCard() {
  const simulate = trpc.voice.simulate.useMutation();
  const status = trpc.voice.status.useQuery();
  return (
    <Card title={CHAT_T.tryTitle}>
      <p className="muted">{CHAT_T.tryIntro}</p>
      <p>
        <strong>{CHAT_T.replyEngine}:</strong> {status.data ? REPLY_ENGINE_LABEL[status.data.engine] : '…'}
      </p>
      <Conversation label={CHAT_T.tryTitle} personaName="Your persona:" ask={(prompt, session_id) => simulate.mutateAsync({ prompt, session_id })} />
    </Card>
  );
}

/** Who may talk to the persona after release, and the keeper (docs/decisions/voice.md). */
export function PersonaAccessCard() {
  const access = trpc.voice.personaAccess.useQuery();
  return (
    <Card title={CHAT_T.accessTitle}>
      <p className="muted">{CHAT_T.accessIntro}</p>
      <QueryState query={access} loading="Loading who may talk to your persona" failed="Could not load who may talk to your persona">
        {(data) => <AccessForm initial={data} />}
      </QueryState>
    </Card>
  );
}

function AccessForm({ initial }: { initial: PersonaAccessView }) {
  const utils = trpc.useUtils();
  const [chosen, setChosen] = useState(() => new Set(initial.recipients.map((r) => r.user_id)));
  const [keeper, setKeeper] = useState(initial.keeper?.user_id ?? '');
  const save = trpc.voice.setPersonaAccess.useMutation({
    onSuccess: (saved) => {
      toast.success(CHAT_T.accessSaved);
      utils.voice.personaAccess.setData(undefined, saved);
    },
    onError: (err) => void toast.error(String(readApiError(err).detail ?? CHAT_T.failed)),
  });
  if (initial.candidates.length === 0) return <p>{CHAT_T.accessNoContacts}</p>;
  const retired = new Map(initial.recipients.filter((r) => r.retired_at).map((r) => [r.user_id, r]));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ recipient_ids: [...chosen], keeper_id: keeper || null });
      }}
    >
      <fieldset className="fieldset">
        <legend className="fieldset__legend">{CHAT_T.accessRecipients}</legend>
        {initial.candidates.map((c) => (
          <CheckboxField
            key={c.user_id}
            label={`${c.name}${c.name === c.email ? '' : ` (${c.email})`}${retired.has(c.user_id) ? ` — ${CHAT_T.retiredForThem}` : ''}`}
            checked={chosen.has(c.user_id)}
            onChange={(e) =>
              setChosen((prev) => {
                const next = new Set(prev);
                if (e.target.checked) next.add(c.user_id);
                else next.delete(c.user_id);
                return next;
              })
            }
          />
        ))}
      </fieldset>
      <SelectField
        label={CHAT_T.keeper}
        options={[{ value: '', label: CHAT_T.noKeeper }, ...initial.candidates.map((c) => ({ value: c.user_id, label: c.name }))]}
        value={keeper}
        onChange={(e) => setKeeper(e.target.value)}
      />
      <div className="button-row">
        <Button type="submit" disabled={save.isPending}>
          {CHAT_T.accessSave}
        </Button>
      </div>
    </form>
  );
}
