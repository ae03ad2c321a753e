import { pendingLink } from '../../lib/pending-link';

/** A vault claim link (its QR code) opened while signed out (lib/pending-link.ts). */
export const PENDING_CLAIM_KEY = 'pendingVaultClaim';
export const { remember: rememberPendingClaim, take: takePendingClaim } = pendingLink(PENDING_CLAIM_KEY);
