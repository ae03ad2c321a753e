import { notFound } from '../../lib/errors';

/** The one 404 of a memorial that does not exist (or a malformed id). */
export const memorialNotFound = () => notFound('Memorial not found');
/** The one 404 of a post that does not exist (or a malformed id). */
export const postNotFound = () => notFound('Post not found');
