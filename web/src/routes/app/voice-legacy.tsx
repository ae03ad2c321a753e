import { createFileRoute } from '@tanstack/react-router';
import { NotBuiltPage } from '../../features/app-pages/not-built-page';

export const Route = createFileRoute('/app/voice-legacy')({
  component: VoiceTrainerPage,
});

function VoiceTrainerPage() {
  return (
    <NotBuiltPage
      title="Voice Trainer"
      intro="Set up a persona and train a voice from your recordings, with your consent."
      notice="Voice training is not available yet."
    />
  );
}
