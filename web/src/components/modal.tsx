import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}

/** Radix Dialog does the hard parts: focus trapped inside, returned on close, Escape, aria-modal. */
export function Modal({ open, onOpenChange, title, description, children, footer }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal__overlay" />
        <Dialog.Content className="modal" {...(description ? {} : { 'aria-describedby': undefined })}>
          <Dialog.Title className="modal__title">{title}</Dialog.Title>
          {description ? <Dialog.Description className="modal__description">{description}</Dialog.Description> : null}
          {children}
          {footer ? <div className="modal__footer">{footer}</div> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Wrap a button in this to make it close the surrounding Modal. */
export const ModalClose = Dialog.Close;
