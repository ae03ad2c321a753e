import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../features/app-pages/page-header';
import { T } from '../../features/voice/texts';
import { BeyondCard } from '../../features/voice/beyond-card';
import { PersonaCard } from '../../features/voice/persona-form';
import { VoiceTrainer } from '../../features/voice/voice-trainer';
import { PersonaAccessCard, TryConversationCard } from '../../features/voice/persona-talk-cards';
import { awaitReads } from '../../lib/route-data';

export const Route = createFileRoute('/app/voice-legacy')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.voice.status.ensureData(), trpc.voice.persona.ensureData()),
  component: VoiceTrainerPage,
});

function VoiceTrainerPage() {
  return (
    <>
      <PageHeader title={T.title}>
        <p>{T.intro}</p>
      </PageHeader>
      <PersonaCard />
      <VoiceTrainer />
      <TryConversationCard />
      <BeyondCard />
      <PersonaAccessCard />
    </>
  );
}
