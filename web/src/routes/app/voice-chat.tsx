import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/voice-chat')({
  component: VoiceChatPage,
});

function VoiceChatPage() {
  return <NotBuiltPage title="Voice Chat" intro="Talk with your trained persona by text or microphone." notice="Voice chat is not available yet." />;
}
