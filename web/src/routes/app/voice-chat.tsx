import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../features/app-pages/page-header';
import { CHAT_T } from '../../features/voice/chat-texts';
import { VoiceChat } from '../../features/voice/voice-chat-page';
import { awaitReads } from '../../lib/route-data';

export const Route = createFileRoute('/app/voice-chat')({
  loader: ({ context: { trpc } }) => awaitReads(trpc.voice.chatPersonas.ensureData()),
  component: VoiceChatPage,
});

function VoiceChatPage() {
  return (
    <>
      <PageHeader title={CHAT_T.title}>
        <p>{CHAT_T.intro}</p>
      </PageHeader>
      <VoiceChat />
    </>
  );
}
