import { z } from 'zod';
import { ZId } from '../../contracts/ids';
import { defineOperation } from '../../api/operation';
import { ZKeyBundle, ZKeyBundleView, ZKeysOfUser, ZPublicKeyLookup, ZPublicKeyView, ZRecoverySaved, ZRecoveryStatus } from '../../contracts/e2ee';
import { createKeys, getOwnKeys, getPublicKey, getRecoveryStatus, lookupPublicKey, markRecoverySaved, publicKeyNotFound } from './key-bundles';

/** /api/keys: E2EE key bundles (docs/api.md "End-to-end encryption keys"). Formats: contracts/e2ee.ts. */
const tags = ['Encryption keys'];
const session = { kind: 'session' } as const;
const noKeys = { description: 'No such user, or the user has no keys' };

export const e2eeOperations = [
  defineOperation({
    method: 'get',
    path: '/api/keys/me',
    trpc: 'me',
    access: session,
    input: {},
    output: ZKeyBundleView,
    docs: {
      operationId: 'getOwnKeys',
      summary: "The caller's key bundle",
      description: 'The public key and the private key wrapped under the password and under the recovery key; the server never sees a private key.',
      tags,
      responses: { 200: { description: 'The bundle' }, 404: { description: 'No encryption keys yet' } },
    },
    run: ({ services, principal }) => getOwnKeys(services, principal.user.id),
  }),
  defineOperation({
    method: 'put',
    path: '/api/keys/me',
    trpc: 'create',
    access: session,
    input: { body: ZKeyBundle },
    output: ZKeyBundleView,
    status: 201,
    docs: {
      operationId: 'createKeys',
      summary: 'Store the first key bundle',
      description: 'Once per account: later bundles only come with a password reset.',
      tags,
      responses: { 201: { description: 'Stored' }, 409: { description: 'The account already has keys' } },
    },
    run: ({ services, principal }, bundle) => createKeys(services, principal.user.id, bundle),
  }),
  defineOperation({
    method: 'get',
    path: '/api/keys/me/recovery',
    trpc: 'recoveryStatus',
    access: session,
    input: {},
    output: ZRecoveryStatus,
    docs: {
      operationId: 'getRecoveryStatus',
      summary: 'Whether the recovery key was saved',
      description: 'Whether the account has encryption keys, and when the owner said they saved the current recovery key (null: not saved, or no keys).',
      tags,
      responses: { 200: { description: 'The status' } },
    },
    run: ({ services, principal }) => getRecoveryStatus(services, principal.user.id),
  }),
  defineOperation({
    method: 'post',
    path: '/api/keys/me/recovery/saved',
    trpc: 'recoverySaved',
    access: session,
    input: { body: ZRecoverySaved },
    output: ZKeyBundleView,
    docs: {
      operationId: 'markRecoverySaved',
      summary: 'Say the recovery key is saved',
      description:
        'The owner saved the recovery key whose wrap has this `ct`; until then the app makes and shows a new one at every password sign-in. 409 when a newer recovery key has replaced that one.',
      tags,
      responses: {
        200: { description: 'Marked saved' },
        404: { description: 'No encryption keys yet' },
        409: { description: 'A newer recovery key replaced this one' },
      },
    },
    run: ({ services, principal }, { recovery_ct }) => markRecoverySaved(services, principal.user.id, recovery_ct),
  }),
  defineOperation({
    method: 'get',
    path: '/api/keys/{userId}',
    trpc: false,
    access: session,
    input: { params: z.object({ userId: ZId }) },
    output: ZPublicKeyView,
    notFound: publicKeyNotFound,
    docs: {
      operationId: 'getPublicKey',
      summary: "A user's public key",
      description: 'What a sender needs to seal a message for that user.',
      tags,
      responses: { 200: { description: 'The public key' }, 404: noKeys },
    },
    run: ({ services }, { userId }) => getPublicKey(services, userId),
  }),
  defineOperation({
    method: 'get',
    path: null,
    trpc: 'forUser',
    access: session,
    // `{user_id}` as the web app sends it; a malformed id over tRPC stays a 422.
    input: { body: ZKeysOfUser },
    output: ZPublicKeyView,
    docs: { operationId: 'getPublicKey', summary: "A user's public key", tags },
    run: ({ services }, { user_id }) => getPublicKey(services, user_id),
  }),
  defineOperation({
    method: 'get',
    path: null,
    trpc: 'lookup',
    access: session,
    input: { body: ZKeysOfUser },
    output: ZPublicKeyLookup,
    docs: { operationId: 'lookupPublicKey', summary: "A user's public key, or null", tags },
    run: ({ services }, { user_id }) => lookupPublicKey(services, user_id),
  }),
] as const;
