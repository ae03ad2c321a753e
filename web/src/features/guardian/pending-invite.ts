import { pendingLink } from '../../lib/pending-link';

/** A guardian invitation opened while signed out (lib/pending-link.ts). */
export const PENDING_INVITE_KEY = 'pendingGuardianInvite';
export const { remember: rememberPendingInvite, take: takePendingInvite } = pendingLink(PENDING_INVITE_KEY);
