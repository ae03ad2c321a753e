import { ZOk } from '../../contracts/transport';
import { defineOperation } from '../../api/operation';
import { ZAccountDeleteInput, ZAccountDeletionCancelled } from '../../contracts/account';
import { ZScheduledDeletion } from '../../contracts/legal';
import { cancelAccountDeletion, checkDeletionPassword, requestAccountDeletion } from './request-deletion';

/** Deleting one's own account on request (docs/decisions/data-export.md "Erasure"). */
const tags = ['Legal'];

export const accountOperations = [
  defineOperation({
    method: 'post',
    path: '/api/account/delete',
    trpc: 'requestDeletion',
    access: { kind: 'session' },
    input: { body: ZAccountDeleteInput },
    output: ZScheduledDeletion,
    status: 201,
    docs: {
      operationId: 'requestAccountDeletion',
      summary: 'Delete my account (in 7 days)',
      description:
        'Confirmed with your password. Everything is erased 7 days later; until then POST /api/account/delete/cancel stops it. You are told on every channel. People who wrote to you are told their unreleased messages cannot be delivered.',
      tags,
      responses: {
        201: { description: 'Scheduled' },
        409: { description: 'Already scheduled' },
        422: { description: 'Wrong or missing password (counts as a failed sign-in)' },
        429: { description: 'Too many wrong passwords' },
      },
    },
    run: ({ services, principal, clientAddress }, input) => requestAccountDeletion(services, principal.user, input, clientAddress),
  }),
  defineOperation({
    method: 'post',
    path: '/api/account/delete/check',
    trpc: 'checkDeletionPassword',
    access: { kind: 'session' },
    input: { body: ZAccountDeleteInput },
    output: ZOk,
    docs: {
      operationId: 'checkAccountDeletionPassword',
      summary: 'Check the password that would confirm a deletion',
      description:
        'Checks the password alone, as POST /api/account/delete will, so a page can say a wrong password before it asks "are you sure?". Schedules nothing. A wrong password counts as a failed sign-in.',
      tags,
      responses: {
        200: { description: 'The password is right' },
        422: { description: 'Wrong or missing password (counts as a failed sign-in)' },
        429: { description: 'Too many wrong passwords' },
      },
    },
    run: ({ services, principal, clientAddress }, input) => checkDeletionPassword(services, principal.user, input, clientAddress),
  }),
  defineOperation({
    method: 'post',
    path: '/api/account/delete/cancel',
    trpc: 'cancelDeletion',
    access: { kind: 'session' },
    input: {},
    output: ZAccountDeletionCancelled,
    docs: {
      operationId: 'cancelAccountDeletion',
      summary: 'Cancel the deletion of my account',
      tags,
      responses: { 200: { description: 'Cancelled' }, 404: { description: 'No deletion was requested' } },
    },
    run: ({ services, principal }) => cancelAccountDeletion(services, principal.user),
  }),
] as const;
