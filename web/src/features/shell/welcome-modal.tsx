import { useState } from 'react';
import { Button } from '../../components/button';
import { Modal, ModalClose } from '../../components/modal';
import { hasSeenOnboarding, markOnboardingSeen } from '../../lib/session';

/**
 * docs/product.md "The app shell and navigation": shown on the first visit to /app, then never again in this browser.
 */
export function WelcomeModal() {
  const [open, setOpen] = useState(() => !hasSeenOnboarding());
  // The welcome comes first: a new account's recovery key (e2ee/recovery-key-modal.tsx) waits for it.

  function handleOpenChange(next: boolean) {
    if (!next) markOnboardingSeen();
    setOpen(next);
  }

  return (
    <Modal
      open={open}
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
