import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './button';
import { Modal, ModalClose } from './modal';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The question itself, e.g. 'Delete this canary?' (the dialog's accessible name). */
  title: string;
  /** Exactly what will happen, and when. */
  description?: ReactNode;
  confirmLabel: string;
  /** The button that closes without doing anything (default 'Cancel'). */
  cancelLabel?: string;
  confirmVariant?: ButtonVariant;
  pending?: boolean;
  onConfirm: () => void;
}

/** A yes/no question in the shared Modal: focus trapped inside, Cancel first, Escape cancels. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  confirmVariant = 'primary',
  pending = false,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      footer={
        <>
          <ModalClose asChild>
            <Button variant="secondary">{cancelLabel}</Button>
          </ModalClose>
          <Button variant={confirmVariant} disabled={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
