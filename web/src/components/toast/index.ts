export { toast, TOAST_DURATIONS, TOAST_LIMIT, type Toast, type ToastKind, type ToastOptions } from './toast-store';
export { Toaster } from './toaster';
export { toastApiError } from './toast-api-error';
