import { AppError } from '../../lib/errors';

/** Not there, not yours, or not yet released to you: one 404 for all three, so none can be told apart. */
export const messageNotFound = () => new AppError('NOT_FOUND', 'Message not found');
