import { z } from 'zod';
import { ZIdParam } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import {
  MAX_CONTACT_INVITATIONS_PER_DAY,
  ZAddContactInput,
  ZContactInvitationAnswer,
  ZContactInvitationToken,
  ZContactView,
  ZReachability,
} from '../../contracts/contacts';
import { addContact } from './add-contact';
import { answerContactInvitation } from './answer-invitation';
import { contactNotFound } from './contact-records';
import { listContacts, removeContact } from './manage-contacts';
import { contactReachability } from './reachability';

/**
 * /api/contacts/* (docs/decisions/contacts.md). Signed-in people only: invite by
 * email, list, remove, accept or decline by the emailed token, and a sender's read of which methods can
 * reach an accepted contact.
 */
const tags = ['Contacts'];
const session = { kind: 'session' } as const;
const notYours = { description: 'Contact not found (or not yours)' };
const invalidLink = { description: 'The link is invalid, or already answered or withdrawn' };

export const contactsOperations = [
  defineOperation({
    method: 'post',
    path: '/api/contacts',
    trpc: 'add',
    access: session,
    input: { body: ZAddContactInput },
    output: ZContactView,
    status: 201,
    docs: {
      operationId: 'addContact',
      limits: [{ what: 'contact invitations', max: MAX_CONTACT_INVITATIONS_PER_DAY, per: '24 hours', refusal: 429 }],
      summary: 'Invite a contact',
      description:
        'Emails `email` an invitation with a single-use link (`/contacts/accept/{token}`). The answer is the same whether or not the address has an account: nobody learns from it who uses Afterword.',
      tags,
      responses: {
        201: { description: 'The contact, `invited`' },
        409: { description: 'This address is already invited or your contact, or `idempotency_key` was already used with another input' },
        422: { description: 'The email is invalid or your own' },
        429: { description: 'More than 20 invitations in 24 hours' },
      },
    },
    run: ({ services, principal }, input) => addContact(services, principal.user, input),
  }),
  defineOperation({
    method: 'get',
    path: '/api/contacts',
    trpc: 'list',
    access: session,
    input: {},
    output: z.array(ZContactView),
    docs: {
      operationId: 'listContacts',
      summary: 'My contacts',
      description:
        'Invitations you sent (invited, declined, accepted) and invitations you accepted, newest first. Accepted ones carry the other person’s `user_id` and `name`.',
      tags,
      responses: { 200: { description: 'Contacts' } },
    },
    run: ({ services, principal }) => listContacts(services, principal.user.id),
  }),
  defineOperation({
    method: 'delete',
    path: '/api/contacts/{id}',
    trpc: 'remove',
    access: session,
    input: { params: ZIdParam },
    output: ZContactView,
    notFound: contactNotFound,
    docs: {
      operationId: 'removeContact',
      summary: 'Remove a contact',
      description: 'Either side may remove an accepted contact (it ends for both); the inviter may withdraw an invitation (its link stops working).',
      tags,
      responses: { 200: { description: 'The contact as it was' }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => removeContact(services, principal.user.id, id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/contacts/accept',
    trpc: 'accept',
    access: session,
    input: { body: ZContactInvitationToken },
    output: ZContactInvitationAnswer,
    docs: {
      operationId: 'acceptContactInvitation',
      summary: 'Accept a contact invitation',
      description: 'With the token of the emailed link. The token is the proof: the account you sign in with need not have the invited address.',
      tags,
      responses: {
        200: { description: 'You are now contacts' },
        404: invalidLink,
        409: { description: 'You are already contacts' },
        422: { description: 'The invitation is your own' },
      },
    },
    run: ({ services, principal }, { token }) => answerContactInvitation(services, principal.user, token, true),
  }),
  defineOperation({
    method: 'post',
    path: '/api/contacts/decline',
    trpc: 'decline',
    access: session,
    input: { body: ZContactInvitationToken },
    output: ZContactInvitationAnswer,
    docs: {
      operationId: 'declineContactInvitation',
      summary: 'Decline a contact invitation',
      tags,
      responses: { 200: { description: 'Declined' }, 404: invalidLink, 422: { description: 'The invitation is your own' } },
    },
    run: ({ services, principal }, { token }) => answerContactInvitation(services, principal.user, token, false),
  }),
  defineOperation({
    method: 'get',
    path: '/api/contacts/reachability/{id}',
    trpc: 'reachability',
    access: session,
    input: { params: ZIdParam },
    output: ZReachability,
    notFound: contactNotFound,
    docs: {
      operationId: 'contactReachability',
      summary: 'Which methods reach a contact',
      description:
        '`id` is an accepted contact’s user id. Per delivery method, whether it can reach them now (`sms`/`call`: a verified phone; `push`: a device) — never the number or the devices. Anyone who is not your contact is 404.',
      tags,
      responses: { 200: { description: 'Reachability' }, 404: notYours },
    },
    run: ({ services, principal }, { id }) => contactReachability(services, principal.user.id, id),
  }),
] as const;
