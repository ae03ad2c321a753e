import { useSyncExternalStore } from 'react';
import { toast, toastStore, type ToastKind } from './toast-store';

const KIND_LABEL: Record<ToastKind, string> = { blank: 'Notice', success: 'Done', error: 'Problem', loading: 'Working' };

/**
 * Top-right region, always mounted so screen readers hear additions (aria-live needs an
 * existing container). Polite on purpose: form errors use their own role="alert".
 */
export function Toaster() {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot, toastStore.getSnapshot);
  return (
    <section className="toaster" aria-label="Notifications">
      <ol className="toaster__list" aria-live="polite" aria-relevant="additions text">
        {toasts.map((t) => (
          <li key={t.id} className={`toast toast--${t.kind}`} data-kind={t.kind}>
            <span className="toast__mark" aria-hidden="true" />
            <span className="visually-hidden">{KIND_LABEL[t.kind]}: </span>
            <span className="toast__message">{t.message}</span>
            {t.kind !== 'loading' ? (
              <button type="button" className="toast__dismiss" aria-label="Dismiss notification" onClick={() => toast.dismiss(t.id)}>
                ×
              </button>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
