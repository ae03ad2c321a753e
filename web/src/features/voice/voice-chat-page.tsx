import type { ChatPersonaView } from '@afterword/worker/contracts/persona-chat';
import { useState } from 'react';
import { Button } from '../../components/button';
import { Card } from '../../components/card';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { QueryState } from '../../components/query-state';
import { SelectField } from '../../components/select';
import { toast } from '../../components/toast';
import { readApiError } from '../../lib/api-error';
import { trpc } from '../../lib/trpc';
import { CHAT_T } from './chat-texts';
import { Conversation } from './conversation';
import { transcribeQuestion } from './voice-api';

/**
 * Voice Chat (docs/product.md "Voice, persona and chat import": by text and microphone): the personas the
 * person may talk to now — their own, and those released to them — a conversation, and retiring
 * (docs/decisions/voice.md).
 */
export function VoiceChat() {
  const personas = trpc.voice.chatPersonas.useQuery();
  return (
    <QueryState query={personas} loading="Loading personas" failed="Could not load the personas">
      {(list) =>
        list.length === 0 ? (
          <Card>
            <EmptyState title={CHAT_T.none}>{CHAT_T.noneHint}</EmptyState>
          </Card>
        ) : (
          <ChooseAndTalk personas={list} />
        )
      }
    </QueryState>
  );
}

function ChooseAndTalk({ personas }: { personas: ChatPersonaView[] }) {
  const [ownerId, setOwnerId] = useState(personas[0]!.owner_id);
  const persona = personas.find((p) => p.owner_id === ownerId) ?? personas[0]!;
  return (
    <Card title={persona.name}>
      {personas.length > 1 ? (
        <SelectField
          label={CHAT_T.choose}
          options={personas.map((p) => ({ value: p.owner_id, label: p.name }))}
          value={persona.owner_id}
          onChange={(e) => setOwnerId(e.target.value)}
        />
      ) : null}
      <p className="muted">{persona.is_own ? CHAT_T.whatItIsOwn : CHAT_T.whatItIs(persona.name)}</p>
      {persona.can_talk ? <PersonaConversation key={persona.owner_id} persona={persona} /> : <p>{CHAT_T.keeperOnly}</p>}
      {persona.is_own ? null : <Retire persona={persona} />}
    </Card>
  );
}

function PersonaConversation({ persona }: { persona: ChatPersonaView }) {
  const reply = trpc.voice.reply.useMutation();
  return (
    <Conversation
      label={`Conversation with ${persona.name}`}
      personaName={persona.is_own ? 'Your persona:' : `${persona.name}:`}
      ask={(prompt, session_id) => reply.mutateAsync({ id: persona.owner_id, prompt, session_id })}
      transcribe={(recording) => transcribeQuestion(persona.owner_id, recording)}
    />
  );
}

function Retire({ persona }: { persona: ChatPersonaView }) {
  const utils = trpc.useUtils();
  const [asking, setAsking] = useState<'me' | 'everyone' | null>(null);
  const retire = trpc.voice.retire.useMutation({
    onSuccess: async () => {
      toast.success(CHAT_T.retired);
      setAsking(null);
      await utils.voice.chatPersonas.invalidate();
    },
    onError: (err) => void toast.error(String(readApiError(err).detail ?? CHAT_T.failed)),
  });
  return (
    <div className="button-row">
      {persona.can_talk ? (
        <Button variant="secondary" onClick={() => setAsking('me')}>
          {CHAT_T.retireMe}
        </Button>
      ) : null}
      {persona.is_keeper ? (
        <Button variant="danger" onClick={() => setAsking('everyone')}>
          {CHAT_T.retireEveryone}
        </Button>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => !open && setAsking(null)}
        title={asking === 'everyone' ? CHAT_T.retireEveryone : CHAT_T.retireMe}
        description={asking === 'everyone' ? CHAT_T.retireEveryoneConfirm : CHAT_T.retireMeConfirm}
        confirmLabel={asking === 'everyone' ? CHAT_T.retireEveryone : CHAT_T.retireMe}
        confirmVariant="danger"
        pending={retire.isPending}
        onConfirm={() => asking && retire.mutate({ id: persona.owner_id, for: asking })}
      />
    </div>
  );
}
