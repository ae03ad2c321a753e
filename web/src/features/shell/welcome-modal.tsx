import { useState } from 'react';
import { Button } from '../../components/button';
import { Modal, ModalClose } from '../../components/modal';
import { hasSeenOnboarding, markOnboardingSeen } from '../../lib/session';
import { useE2eeState } from '../e2ee/key-store';

/** SPEC section 2 and 4: shown on the first visit to /app, then never again in this browser. */
export function WelcomeModal() {
  const [open, setOpen] = useState(() => !hasSeenOnboarding());
  // A new recovery key is shown first (once); the welcome waits until it is closed.
  const held = useE2eeState().pendingRecovery !== null;

  function handleOpenChange(next: boolean) {
    if (!next) markOnboardingSeen();
    setOpen(next);
  }

  return (
    <Modal
      open={open && !held}
      onOpenChange={handleOpenChange}
      title="Welcome to Afterword"
      description="Three ideas to know before you start."
      footer={
        <ModalClose asChild>
          <Button>Close</Button>
        </ModalClose>
      }
    >
      <ul className="welcome-list">
        <li>A check-in is a periodic confirmation that you are okay. Missing it starts delivery.</li>
        <li>Delayed delivery sends your messages after a missed check-in or at a time you schedule.</li>
        <li>Messages and vault items are encrypted for their intended recipients only.</li>
      </ul>
    </Modal>
  );
}
