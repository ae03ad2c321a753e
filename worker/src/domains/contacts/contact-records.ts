import type { Contact, User } from '@afterword/db/schema';
import { type SQLWrapper, sql } from 'drizzle-orm';
import type { TContactView } from '../../contracts/contacts';
import { AppError } from '../../lib/errors';
import { personName } from '../../lib/person-label';

/** The one 404 of every contact route: another person's contact, an unknown id and a malformed id read alike. */
/**
 * The ids of a user's accepted contacts, as SQL with the user's id as `?1`: a contact is mutual, so either
 * side may have invited. Heirs and persona listeners are picked among them (domains/legacy, domains/voice).
 */
export const ACCEPTED_CONTACT_IDS_SQL = `SELECT contact_user_id FROM contacts WHERE owner_id = ?1 AND status = 'accepted'
  UNION SELECT owner_id FROM contacts WHERE contact_user_id = ?1 AND status = 'accepted'`;

/**
 * The same rule as SQL over two user-id columns: true when `a` and `b` are accepted contacts (either side
 * invited) or the same person. What one user may learn of another beyond their id (an email, a name)
 * depends on it: a user id is not an address book.
 */
export const areAcceptedContacts = (a: SQLWrapper, b: SQLWrapper) =>
  sql<boolean>`(${a} = ${b} OR EXISTS (SELECT 1 FROM contacts WHERE status = 'accepted' AND ((owner_id = ${a} AND contact_user_id = ${b}) OR (owner_id = ${b} AND contact_user_id = ${a}))))`;

export const contactNotFound = () => new AppError('NOT_FOUND', 'Contact not found');
export const CONTACT_INVITATION_INVALID = 'This invitation link is invalid, or it was already answered or withdrawn';

export { personName };

/**
 * A contact row as `viewer` sees it. `other` is the account on the far side (the inviter for the
 * invitee; the accepting account for the inviter), shown only once the invitation is accepted.
 */
export function toContactView(c: Contact, viewerId: string, other: Pick<User, 'id' | 'display_name' | 'email'> | null): TContactView {
  const sent = c.owner_id === viewerId;
  const shown = c.status === 'accepted' ? other : null;
  return {
    id: c.id,
    status: c.status,
    direction: sent ? 'sent' : 'received',
    email: shown?.email ?? c.email,
    name: shown ? personName(shown) : null,
    user_id: shown?.id ?? null,
    invited_at: c.invited_at.toISOString(),
    responded_at: c.responded_at?.toISOString() ?? null,
  };
}
