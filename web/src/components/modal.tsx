import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';

interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}

/**
 * Radix Dialog does the hard parts: focus trapped inside, Escape, aria-modal. Radix returns focus only
 * to a `Dialog.Trigger`; our dialogs are opened by ordinary buttons (controlled `open`), so the element
 * that had focus when it opened is remembered and focused again after Escape, Cancel or Close.
 */
export function Modal({ open, onOpenChange, title, description, children, footer }: ModalProps) {
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal__overlay" />
        <Dialog.Content
          className="modal"
          {...(description ? {} : { 'aria-describedby': undefined })}
          // Runs before Radix moves focus inside, so the active element is still the opener.
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const back = opener.current;
            opener.current = null;
            if (back?.isConnected) {
              event.preventDefault();
              back.focus();
            }
          }}
        >
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
