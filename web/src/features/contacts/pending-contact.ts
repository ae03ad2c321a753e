import { pendingLink } from '../../lib/pending-link';

/** A contact invitation opened while signed out (lib/pending-link.ts). */
export const PENDING_CONTACT_KEY = 'pendingContactInvite';
export const { remember: rememberPendingContact, take: takePendingContact } = pendingLink(PENDING_CONTACT_KEY);
