import { MESSAGE_FILTERS, type MessageFilter } from '@afterword/worker/contracts/messages';

/**
 * Whether a search value is one of the message list's filters. Its own module: the /app/messages route's
 * validateSearch runs in the app's first chunk, which should not carry the list's components with it.
 */
export const isMessageFilter = (v: unknown): v is MessageFilter => MESSAGE_FILTERS.includes(v as MessageFilter);
