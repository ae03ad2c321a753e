import type { User } from '@afterword/db/schema';
import { AppError } from '../../lib/errors';

export const ARCHIVED_READ_ONLY = 'This account is archived after two years without a sign-in or a check-in: it is read-only. Sign in to restore it as it was.';

/**
 * An archived account is read-only (docs/decisions/inactivity.md): reads answer, changes are refused with 403 until
 * the owner signs in, which restores it. Archival closes the account's sessions, so in practice this
 * holds API keys, and any session that raced the archive.
 */
export function refuseChangesWhileArchived(user: Pick<User, 'archived_at'>, method: string) {
  if (user.archived_at && !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) throw new AppError('FORBIDDEN', ARCHIVED_READ_ONLY);
}
