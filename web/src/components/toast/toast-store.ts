/**
 * A tiny toast store outside React, so any module (pages, the tRPC link) can raise a toast.
 * docs/product.md "The app shell and navigation": at most 20 at once (oldest dropped); 4 s for blank and error,
 * 2 s for success, loading stays until it is replaced (same id) or dismissed.
 */
export type ToastKind = 'blank' | 'success' | 'error' | 'loading';

export interface Toast {
  id: string;
  kind: ToastKind;
  message: string;
}

export interface ToastOptions {
  /** Reusing an id replaces that toast, e.g. a loading toast turning into success. */
  id?: string;
  /** Milliseconds; overrides the kind's default. */
  duration?: number;
}

export const TOAST_LIMIT = 20;
export const TOAST_DURATIONS: Record<ToastKind, number | null> = { blank: 4000, error: 4000, success: 2000, loading: null };

let toasts: readonly Toast[] = [];
let nextId = 1;
const timers = new Map<string, ReturnType<typeof setTimeout>>();
const listeners = new Set<() => void>();

function emit(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function clearTimer(id: string) {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
}

function show(kind: ToastKind, message: string, options: ToastOptions = {}): string {
  const id = options.id ?? `toast-${nextId++}`;
  clearTimer(id);
  const replaced = toasts.some((t) => t.id === id);
  let next = replaced ? toasts.map((t) => (t.id === id ? { id, kind, message } : t)) : [...toasts, { id, kind, message }];
  while (next.length > TOAST_LIMIT) {
    const [oldest, ...rest] = next;
    if (oldest) clearTimer(oldest.id);
    next = rest;
  }
  const duration = options.duration ?? TOAST_DURATIONS[kind];
  if (duration !== null)
    timers.set(
      id,
      setTimeout(() => dismiss(id), duration),
    );
  emit(next);
  return id;
}

function dismiss(id?: string) {
  const gone = id === undefined ? toasts : toasts.filter((t) => t.id === id);
  for (const t of gone) clearTimer(t.id);
  emit(id === undefined ? [] : toasts.filter((t) => t.id !== id));
}

export const toast = Object.assign((message: string, options?: ToastOptions) => show('blank', message, options), {
  blank: (message: string, options?: ToastOptions) => show('blank', message, options),
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  loading: (message: string, options?: ToastOptions) => show('loading', message, options),
  dismiss,
});

export const toastStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: () => toasts,
  /** Tests only: forget every toast and timer. */
  reset() {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    emit([]);
  },
};
