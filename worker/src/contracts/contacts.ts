import { z } from 'zod';
import { ZEmail } from './auth';
import { ZIdempotencyKey } from './idempotency';

/**
 * Contacts (docs/decisions/contacts.md): POST /api/contacts invites an address, the
 * invitee accepts or declines by the emailed token, and accepted contacts (mutual) are listed by name in
 * every recipient and guardian picker. GET /api/contacts/reachability/{user_id} tells a sender which
 * channels can reach an accepted contact, and nothing more.
 */

/** Invitations one account may send per rolling 24 hours (remove and re-invite is not a mailing list). */
export const MAX_CONTACT_INVITATIONS_PER_DAY = 20;

export const CONTACT_STATUSES = ['invited', 'accepted', 'declined'] as const;

/** POST /api/contacts. */
export const ZAddContactInput = z.object({
  email: ZEmail,
  /** Optional: sent again with the same key and input, the call answers with the invitation its first try wrote. */
  idempotency_key: ZIdempotencyKey,
});
export type TAddContactInput = z.output<typeof ZAddContactInput>;

/**
 * A contact as the caller sees it. `direction` says who invited whom. The other person's `user_id`,
 * `name` (display name, else email) and account `email` appear only once accepted; before that the
 * inviter sees only the address they typed.
 */
export const ZContactView = z.object({
  id: z.string(),
  status: z.enum(CONTACT_STATUSES),
  direction: z.enum(['sent', 'received']),
  email: z.string(),
  name: z.string().nullable(),
  user_id: z.string().nullable(),
  invited_at: z.string(),
  responded_at: z.string().nullable(),
});
export type TContactView = z.output<typeof ZContactView>;

/** The invitation link's token (`/contacts/accept/{token}`): 256 bits, base64url. */
export const ZContactInvitationToken = z.object({
  token: z.string({ message: 'token is required' }).trim().min(1, { message: 'token is required' }).max(100, { message: 'token is not an invitation token' }),
});

/** POST /api/contacts/accept | decline. */
export const ZContactInvitationAnswer = z.object({
  id: z.string().describe('the contact id'),
  status: z.enum(['accepted', 'declined']),
  /** Who invited you. */
  inviter_name: z.string(),
});
export type TContactInvitationAnswer = z.output<typeof ZContactInvitationAnswer>;

/**
 * GET /api/contacts/reachability/{user_id}: per delivery method, whether it can reach this contact now —
 * never the phone number, the devices or anything else. Email always can (every account has one);
 * `sms` and `call` need a verified phone; `push` needs at least one device. The inbox always holds it.
 */
export const ZReachability = z.object({
  user_id: z.string(),
  name: z.string(),
  methods: z.object({ email: z.boolean(), sms: z.boolean(), call: z.boolean(), push: z.boolean() }),
});
export type TReachability = z.output<typeof ZReachability>;
