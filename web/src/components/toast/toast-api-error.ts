import { readApiError } from '../../lib/api-error';
import { toast } from './toast-store';

/** A mutation's onError: the server's detail in an error toast, or `fallback` when it gave none. */
export const toastApiError = (fallback: string) => (error: unknown) => void toast.error(readApiError(error).detail ?? fallback);
